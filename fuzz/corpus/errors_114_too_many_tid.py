# expect: 8:5: error: wp.tid() has at most 4 dimensions, got 5 targets
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    x, y, z, w, v = wp.tid()
