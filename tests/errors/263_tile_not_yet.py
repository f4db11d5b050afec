# expect: 9:12: error: wp.tile_load is not supported yet (tiles, issue #24)
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float), b: wp.array(dtype=float)):
    i = wp.tid()
    n = wp.block_dim()
    t = wp.tile_load(a, shape=16, offset=i * 16)
    wp.tile_store(b, t, offset=i * 16 + n)
