# expect: 8:12: error: wp.tile_stack is not supported yet (issue #24)
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    s = wp.tile_stack(capacity=16, dtype=float)
    a[i] = 1.0
