# expect: 9:8: error: wp.tile_fft is not supported yet (issue #24)
import warp as wp


@wp.kernel
def k(a: wp.array2d(dtype=wp.vec2f)):
    i = wp.tid()
    t = wp.tile_load(a, shape=(4, 16))
    wp.tile_fft(t)
    wp.tile_store(a, t)
