# expect: 8:10: error: 3 values are assigned to 2 targets
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    x, y = 1, 2, 3
