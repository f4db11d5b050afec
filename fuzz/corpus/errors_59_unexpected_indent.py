# expect: 8:9: error: unexpected indent
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
        a[i] = 1.0
