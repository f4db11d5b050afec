# expect: 7:13: error: the step of a slice cannot be zero
import warp as wp


@wp.kernel
def k(x: wp.array(dtype=float)):
    s = x[::0]
    s[0] = 1.0
