# expect: 5:1: error: this Warp decorator is not supported
import warp as wp


@wp.overload
def k(a: wp.array(dtype=float)):
    pass
