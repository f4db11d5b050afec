# expect: 8:7: error: cannot assign to the shape of an array
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    a.shape[0] = 1
