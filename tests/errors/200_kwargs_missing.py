# expect: 8:15: error: wp.pow() is missing its argument 'x'
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = wp.pow(y=a[i])
