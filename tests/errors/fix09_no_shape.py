# expect: 7:12: error: wp.zeros() needs a shape
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=int)):
    f = wp.zeros(dtype=int)
