# expect: 8:8: error: wp.printf() needs a string literal format first
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    wp.printf(i)
