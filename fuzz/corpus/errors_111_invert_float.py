# expect: 8:9: error: ~ needs an integer, got float32
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    x = ~a[i]
