# expect: 8:9: error: strings are only supported as the format of wp.printf()
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    s = 'x' + 'y'
