# expect: 9:17: error: wp.tile_fft(): the tile must be of vec2f or vec2d (complex numbers), got tile(dtype=float32, shape=(4, 16))
import warp as wp


@wp.kernel
def k(a: wp.array2d(dtype=wp.float32)):
    i = wp.tid()
    t = wp.tile_load(a, shape=(4, 16))
    wp.tile_fft(t)
    wp.tile_store(a, t)
