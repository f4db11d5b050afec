# expect: 11:29: error: wp.tile_matmul(): out is written in place, so it must be a tile variable (kern copies views and other tile expressions)
import warp as wp


@wp.kernel
def k(a: wp.array2d(dtype=float)):
    i = wp.tid()
    x = wp.tile_load(a, shape=(4, 4))
    y = wp.tile_ones(shape=(4, 4), dtype=float)
    c = wp.tile_zeros(shape=(4, 4), dtype=float)
    wp.tile_matmul(x, y, wp.tile_transpose(c))
    wp.tile_store(a, c)
