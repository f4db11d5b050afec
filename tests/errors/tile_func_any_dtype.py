# expect: 6:22: error: wp.tile[...] needs a concrete element type (Warp finds no tile that fits wp.tile[Any]); write Any for the whole annotation instead
import warp as wp
from typing import Any

@wp.func
def twice(t: wp.tile[Any, 4]):
    return t * 2.0

@wp.kernel
def k(a: wp.array(dtype=float)):
    t = wp.tile_load(a, shape=4)
    u = twice(t)
    wp.tile_store(a, u)
