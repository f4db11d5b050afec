# expect: 8:17: error: literal 300 does not fit in int8
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    x = wp.int8(300)
