# expect: 13:22: error: unary - on a tile of S: Warp's tiles of structs have no unary operators
import warp as wp


@wp.struct
class S:
    x: float


@wp.kernel
def k(a: wp.array(dtype=S)):
    t = wp.tile_load(a, shape=4)
    wp.tile_store(a, -t)
