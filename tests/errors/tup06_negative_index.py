# expect: 8:14: error: a tuple index must not be negative (Warp 1.19 fails to build t[-1])
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=int)):
    t = (1, 2, 3)
    a[0] = t[-1]
