# expect: 5:1: error: the Warp decorator @wp.overload is not supported
import warp as wp


@wp.overload
def k(a: wp.array(dtype=float)):
    pass
