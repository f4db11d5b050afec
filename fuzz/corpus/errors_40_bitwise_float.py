# expect: 8:14: error: operator & is not defined for float32
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    x = a[i] & 1.0
