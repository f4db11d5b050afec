# expect: 8:19: error: the format has more conversions than arguments
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    wp.printf("%d %d\n", i)
