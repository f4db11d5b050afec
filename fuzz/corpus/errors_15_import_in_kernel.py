# expect: 8:5: error: 'import' is not supported in kernels and functions
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    import math
