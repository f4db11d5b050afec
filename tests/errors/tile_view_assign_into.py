# expect: 11:20: error: 'r' is a tile view or has views (wp.tile_view, tile_transpose, tile_broadcast, tile_reshape, tile_squeeze): kern copies views, so writing such a tile in place is not supported yet (issue #24)
import warp as wp


@wp.kernel
def k(a: wp.array2d(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(a, shape=(4, 4))
    r = wp.tile_reshape(t, shape=(16,))
    z = wp.tile_zeros(shape=2, dtype=float)
    wp.tile_assign(r, z)
    wp.tile_store(a, t)
