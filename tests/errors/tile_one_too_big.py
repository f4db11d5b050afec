# expect: 7:12: error: wp.tile_load(): a tile of 32768 vec2d is 524288 bytes, too large: kern allows at most 262144 bytes per tile (it lives on the thread's stack or in its private memory)
import warp as wp


@wp.kernel
def k(a: wp.array2d(dtype=wp.vec2d)):
    t = wp.tile_load(a, shape=(128, 256))
    wp.tile_store(a, t)
