# expect: 8:9: error: len() is not supported; use a.shape[0]
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    n = len(a)
