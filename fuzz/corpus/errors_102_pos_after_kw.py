# expect: 8:27: error: positional argument follows keyword argument
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = wp.min(x=a[i], 1.0)
