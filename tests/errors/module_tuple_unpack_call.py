# expect: 11:12: error: 'Q' (line 5) is a module-level value kern cannot evaluate at compile time; kernels can use module-level numbers, booleans, wp.constant() values and arithmetic on them
import warp as wp

N, M = 3, 2 * 4
P, Q = divmod(7, 2)


@wp.kernel
def k(a: wp.array(dtype=int)):
    a[0] = N + M
    a[1] = Q
