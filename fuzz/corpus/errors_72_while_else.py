# expect: 10:5: error: 'else' on a loop is not supported in kernels and functions
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    while i > 0:
        break
    else:
        pass
