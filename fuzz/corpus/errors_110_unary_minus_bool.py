# expect: 8:9: error: unary - is not defined for bool
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    b = -(i > 0)
