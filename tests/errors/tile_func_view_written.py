# expect: 16:14: error: 'b' is a tile view or has views (wp.tile_view, tile_transpose, tile_broadcast, tile_reshape, tile_squeeze): kern copies views, so writing such a tile in place is not supported yet (issue #24)
import warp as wp

@wp.func
def bump(t: wp.tile[float, 2, 3]):
    t += wp.tile_ones(shape=(2, 3), dtype=float)

@wp.func
def bump_via(t: wp.tile[float, 2, 3]):
    bump(t)

@wp.kernel
def k(a: wp.array2d(dtype=float)):
    r = wp.tile_load(a, shape=(2, 1))
    b = wp.tile_broadcast(r, shape=(2, 3))
    bump_via(b)
    wp.tile_store(a, b)
