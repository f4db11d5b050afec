# expect: 8:10: error: invalid character 'x' in number
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    x = 1x
