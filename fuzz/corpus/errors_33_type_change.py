# expect: 9:5: error: cannot assign float32 to 'x', which is int32 (a variable keeps the type of its first assignment)
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    x = 1
    x = 2.0
