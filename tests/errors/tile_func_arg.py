# expect: 13:9: error: 'twice': tiles as @wp.func arguments are not supported yet (issue #24); pass arrays, or use the tile builtins in the kernel
import warp as wp
from typing import Any

@wp.func
def twice(t: Any):
    return t * 2.0

@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(a, shape=4)
    u = twice(t)
    wp.tile_store(a, u)
