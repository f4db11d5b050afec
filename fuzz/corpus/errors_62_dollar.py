# expect: 8:12: error: unexpected character '$'
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = $x
