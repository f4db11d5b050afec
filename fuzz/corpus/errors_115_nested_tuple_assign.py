# expect: 8:17: error: tuples are only supported on either side of an assignment and in return statements
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    (x, y), z = (1, 2), 3
