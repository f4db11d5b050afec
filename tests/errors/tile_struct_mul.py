# expect: 13:24: error: unsupported operand types for & on tile elements: S and S (Warp's tiles of structs have + and - between elements of one struct type)
import warp as wp


@wp.struct
class S:
    x: float


@wp.kernel
def k(a: wp.array(dtype=S)):
    t = wp.tile_load(a, shape=4)
    wp.tile_store(a, t & t)
