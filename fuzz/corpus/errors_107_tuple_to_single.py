# expect: 8:9: error: a tuple cannot be assigned to a single variable
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    t = (1, 2)
