# expect: 8:10: error: 'is' is not supported in kernels
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    if i is 0:
        pass
