# expect: 8:20: error: wp.tile_fft(): inout is written in place, so it must be a tile variable (kern copies views and other tile expressions)
import warp as wp


@wp.kernel
def k(a: wp.array2d(dtype=wp.vec2d)):
    i = wp.tid()
    wp.tile_fft(wp.tile_load(a, shape=(2, 8)))
