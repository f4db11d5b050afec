# expect: 8:5: error: non-ASCII identifiers are not supported
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    xé = 1
