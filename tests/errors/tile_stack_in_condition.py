# expect: 9:14: error: wp.tile_stack_pop() cannot be used in a loop condition or a conditionally evaluated operand; call it in a statement of its own
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=int)):
    i = wp.tid()
    s = wp.tile_stack(capacity=4, dtype=int)
    while wp.tile_stack_pop(s)[1] >= 0:
        a[i] = 1
