# expect: 8:25: error: wp.pow() got parameter 'x' twice
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = wp.pow(a[i], x=2.0)
