# expect: 8:11: error: unexpected character after line continuation character
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    x = 1 \ 2
