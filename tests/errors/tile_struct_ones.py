# expect: 12:37: error: wp.tile_ones(): the elements of a tile are scalars, vectors or matrices, not S
import warp as wp


@wp.struct
class S:
    x: float


@wp.kernel
def k(a: wp.array(dtype=S)):
    t = wp.tile_ones(shape=4, dtype=S)
    wp.tile_store(a, t)
