# expect: 8:7: error: chained assignment (a = b = ...) is not supported
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    x = y = 1
