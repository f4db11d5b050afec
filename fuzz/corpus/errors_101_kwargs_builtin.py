# expect: 8:19: error: wp.sin() takes no keyword arguments
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = wp.sin(x=a[i])
