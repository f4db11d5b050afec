# expect: 5:1: error: the Warp decorator @wp.func_magic is not supported
import warp as wp


@wp.func_magic(k)
def k(a: wp.array(dtype=float)):
    pass
