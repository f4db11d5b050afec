# expect: 8:15: error: unmatched ')'
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = 1.0)
