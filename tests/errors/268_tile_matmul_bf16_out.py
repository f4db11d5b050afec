# expect: 12:26: error: wp.tile_matmul(): the product is summed in out's type, which may be float16, float32 or float64, not bfloat16 (as in Warp)
import warp as wp


@wp.kernel
def k(a: wp.array2d(dtype=wp.bfloat16), c: wp.array2d(dtype=wp.bfloat16)):
    i = wp.tid()
    t = wp.tile_load(a, shape=(4, 4))
    u = wp.tile_load(a, shape=(4, 4))
    o = wp.tile_load(c, shape=(4, 4))
    # bfloat16 operands are fine, a bfloat16 out is not
    wp.tile_matmul(t, u, o)
    wp.tile_store(c, o)
