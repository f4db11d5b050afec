# expect: 8:10: error: 'in' is not supported in kernels
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    if i in 3:
        pass
