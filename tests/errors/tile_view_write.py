# expect: 12:5: error: 'v' is a tile view or has views (wp.tile_view, tile_transpose, tile_broadcast, tile_reshape, tile_squeeze): kern copies views, so writing such a tile in place is not supported yet (issue #24)
import warp as wp


@wp.kernel
def k(a: wp.array2d(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(a, shape=(4, 4))
    v = wp.tile_transpose(t)
    u = t + t
    u += t
    v += t
    wp.tile_store(a, v)
