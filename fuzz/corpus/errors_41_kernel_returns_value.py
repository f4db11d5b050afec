# expect: 8:5: error: a kernel cannot return a value
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    return 1
