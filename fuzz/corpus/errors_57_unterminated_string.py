# expect: 8:15: error: unterminated string literal
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    wp.printf("abc)
