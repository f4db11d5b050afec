# expect: 9:27: error: wp.tile_stack_push(): value type float32 does not match stack dtype int32
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    s = wp.tile_stack(capacity=4, dtype=int)
    wp.tile_stack_push(s, 1.0, True)
    a[i] = 1.0
