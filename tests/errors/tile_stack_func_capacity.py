# expect: 13:12: error: argument 1 of helper() ('s') must be tile_stack(capacity=8, dtype=int32), got tile_stack(capacity=4, dtype=int32)
import warp as wp


@wp.func
def helper(s: wp.tile_stack(capacity=8, dtype=int), v: int):
    wp.tile_stack_push(s, v, True)


@wp.kernel
def k(out: wp.array(dtype=int)):
    s = wp.tile_stack(capacity=4, dtype=int)
    helper(s, 3)
    out[0] = wp.tile_stack_count(s)
