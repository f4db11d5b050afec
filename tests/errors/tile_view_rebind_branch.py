# expect: 12:5: error: 't' is a tile view or has views (wp.tile_view, tile_transpose, tile_broadcast, tile_reshape, tile_squeeze) that kern cannot keep in step (Note [tile views in place]): kern copies views, so writing such a tile in place is not supported yet (issue #24)
import warp as wp


@wp.kernel
def k(a: wp.array2d(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(a, shape=(4, 4))
    v = t[0]
    if i > 0:
        v = t[1]
    t[0, 1] = 2.0
    wp.tile_store(a[0], v)
