# expect: 8:15: error: wp.sin() takes 1 argument, got 2
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = wp.sin(a[i], 1.0)
