# expect: 5:1: error: wp.overload() of 'k', which is not a kernel in this file
import warp as wp


@wp.overload
def k(a: wp.array(dtype=float)):
    pass
