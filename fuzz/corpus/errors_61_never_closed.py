# expect: 8:12: error: '(' was never closed
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = (1.0
