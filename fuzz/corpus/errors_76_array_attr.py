# expect: 8:11: error: arrays have no attribute 'size' in kernels (only .shape and .ndim)
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    n = a.size
