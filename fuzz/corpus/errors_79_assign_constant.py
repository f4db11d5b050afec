# expect: 9:5: error: cannot assign to the constant 'N'
import warp as wp

N = wp.constant(3)


@wp.kernel
def k(a: wp.array(dtype=float)):
    N = 4
