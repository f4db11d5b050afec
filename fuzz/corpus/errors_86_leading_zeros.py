# expect: 8:9: error: leading zeros in a decimal integer literal are not permitted
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    x = 007
