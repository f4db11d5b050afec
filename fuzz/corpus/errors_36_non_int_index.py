# expect: 8:7: error: array index must be an integer, got float32
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    a[1.0] = 1.0
