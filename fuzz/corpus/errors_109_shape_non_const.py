# expect: 8:17: error: shape index must be a constant
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    n = a.shape[i]
