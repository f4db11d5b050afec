# expect: 8:12: error: slices are not supported
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    b = a[1:2]
