# expect: 8:5: error: 'global' is not supported in kernels and functions
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    global x
