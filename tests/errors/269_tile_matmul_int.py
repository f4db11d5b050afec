# expect: 9:30: error: wp.tile_matmul(): b must be a tile of float16, bfloat16, float32 or float64, got tile(dtype=int32, shape=(4, 4))
import warp as wp


@wp.kernel
def k(a: wp.array2d(dtype=float), b: wp.array2d(dtype=int)):
    i = wp.tid()
    t = wp.tile_load(a, shape=(4, 4))
    c = wp.tile_matmul(t, wp.tile_load(b, shape=(4, 4)))
    wp.tile_store(a, c)
