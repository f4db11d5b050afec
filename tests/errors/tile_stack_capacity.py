# expect: 8:32: error: wp.tile_stack() requires capacity to be a positive integer, got 0
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    s = wp.tile_stack(capacity=0, dtype=float)
    a[i] = 1.0
