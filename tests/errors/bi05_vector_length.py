# expect: 8:12: error: wp.vector() of length 6 is not supported yet (kern has vectors of 2 to 4 components)
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    v = wp.vector(a[i], length=6)
