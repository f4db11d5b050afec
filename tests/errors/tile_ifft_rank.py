# expect: 9:18: error: wp.tile_ifft(): the tile must have at least 2 dimensions (the FFT runs along the last), got tile(dtype=vec2, shape=(16,))
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=wp.vec2f)):
    i = wp.tid()
    t = wp.tile_load(a, shape=16)
    wp.tile_ifft(t)
    wp.tile_store(a, t)
