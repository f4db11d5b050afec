# expect: 8:9: error: dict or set literals are not supported in kernels
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    x = {1: 2}
