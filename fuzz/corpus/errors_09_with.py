# expect: 8:5: error: 'with' is not supported in kernels and functions
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    with foo:
        a[i] = 1.0
