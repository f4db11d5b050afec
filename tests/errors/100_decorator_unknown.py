# expect: 5:1: error: the Warp decorator @wp.func_native is not supported
import warp as wp


@wp.func_native("return 0;")
def k(a: wp.array(dtype=float)):
    pass
