# expect: 8:13: error: len() of a float32 is not supported
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    n = len(a[i])
