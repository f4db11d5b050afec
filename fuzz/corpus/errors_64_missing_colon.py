# expect: 8:13: error: expected ':', found end of line
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    if i > 0
        a[i] = 1.0
