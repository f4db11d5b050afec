# expect: 8:19: error: wp.sin() has no parameter 'y'
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = wp.sin(y=a[i])
