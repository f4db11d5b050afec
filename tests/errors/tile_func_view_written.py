# expect: 16:14: error: 'b' is a broadcast view (wp.tile_broadcast): several of its elements are one element of its tile, so writing it in place is not supported
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
