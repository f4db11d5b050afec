# expect: 8:5: error: 'try' is not supported in kernels and functions
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    try:
        a[i] = 1.0
    except Exception:
        pass
