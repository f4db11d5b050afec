# expect: 8:27: error: wp.pow() has no parameter 'z'
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = wp.pow(x=a[i], z=2.0)
