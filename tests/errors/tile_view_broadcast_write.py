# expect: 10:5: error: 'b' is a broadcast view (wp.tile_broadcast): several of its elements are one element of its tile, so writing it in place is not supported
import warp as wp


@wp.kernel
def k(a: wp.array2d(dtype=float)):
    i = wp.tid()
    row = wp.tile_load(a[0], shape=4)
    b = wp.tile_broadcast(row, shape=(2, 4))
    b += wp.tile_ones(shape=(2, 4), dtype=float)
    wp.tile_store(a, b)
