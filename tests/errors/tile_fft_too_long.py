# expect: 9:17: error: wp.tile_fft(): a transform of 4100 elements, not a power of two, is too long: Warp allows at most 4096 then
import warp as wp


@wp.kernel
def k(a: wp.array2d(dtype=wp.vec2f)):
    i = wp.tid()
    t = wp.tile_load(a, shape=(1, 4100))
    wp.tile_fft(t)
    wp.tile_store(a, t)
