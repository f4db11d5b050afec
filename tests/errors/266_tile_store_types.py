# expect: 9:8: error: wp.tile_store(): a tile of int32 into an array of float32 (Warp needs the same type)
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    t = wp.tile_arange(8)
    wp.tile_store(a, t, offset=i * 8)
