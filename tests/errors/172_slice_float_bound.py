# expect: 7:11: error: the start of an array slice must be an int32, got float32
import warp as wp


@wp.kernel
def k(x: wp.array(dtype=float)):
    s = x[1.5:3]
    s[0] = 1.0
