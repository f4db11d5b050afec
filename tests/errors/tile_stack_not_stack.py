# expect: 8:33: error: wp.tile_stack_pop(): the first argument must be a tile stack (from wp.tile_stack), got int32
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    v, slot = wp.tile_stack_pop(i)
    a[i] = float(v)
