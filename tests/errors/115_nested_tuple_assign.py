# expect: 8:17: error: cannot assign a tuple(int32, int32)
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    (x, y), z = (1, 2), 3
