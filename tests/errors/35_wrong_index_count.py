# expect: 8:5: error: a 1-d array of float32 takes 1 index, got 2
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i, 0] = 1.0
