# expect: 8:15: error: a tuple can only be assigned to a variable
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    a.shape = (3,)
