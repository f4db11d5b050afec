# expect: 8:15: error: a tuple cannot be assigned to a single variable
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    a.shape = (3,)
