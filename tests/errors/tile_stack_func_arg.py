# expect: 14:5: error: 'helper': tile stacks as @wp.func arguments are not supported yet (issue #24); use the stack in the function that makes it
import warp as wp
from typing import Any


@wp.func
def helper(s: Any, v: int):
    wp.tile_stack_push(s, v, True)


@wp.kernel
def k(out: wp.array(dtype=int)):
    s = wp.tile_stack(capacity=4, dtype=int)
    helper(s, 3)
    out[0] = wp.tile_stack_count(s)
