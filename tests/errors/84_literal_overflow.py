# expect: 8:18: error: literal 1e+30 does not fit in int64
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    x = wp.int64(1e30)
