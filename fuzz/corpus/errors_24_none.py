# expect: 8:9: error: None is not supported in kernels
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    x = None
