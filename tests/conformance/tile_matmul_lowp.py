# Tiles (issue #24): wp.tile_matmul of float16 and bfloat16 tiles.  As in
# Warp, the products are summed in out's type (a's type in the two-argument
# form): a float16 a @ float32 b into a float64 out with alpha and beta, a
# float16 product summed in float16 (rounded after every step), and
# bfloat16 a and b into a float32 out (Warp takes bfloat16 operands only
# with enable_backward off).
# kern-test: tile_matmul_lowp --dim 1 --tiled --block-dim 32 a='rand(float16,6,8,seed=41)' b='rand(float32,8,5,seed=42)' c='rand(float64,6,5,seed=43)' h='rand(float16,8,5,seed=44)' p='zeros(float16,6,5)' ab='rand(bfloat16,6,8,seed=45)' bb='rand(bfloat16,8,5,seed=46)' q='zeros(float32,6,5)'
# why: 8 products summed per element, in float64 / float32; only the order could differ
# kern-check: c rtol=1e-12 atol=1e-14
# kern-check: p
# kern-check: q rtol=1e-6 atol=1e-6
import warp as wp


@wp.kernel(module="unique", module_options={"enable_backward": False})
def tile_matmul_lowp(a: wp.array2d(dtype=wp.float16), b: wp.array2d(dtype=wp.float32),
                     c: wp.array2d(dtype=wp.float64), h: wp.array2d(dtype=wp.float16),
                     p: wp.array2d(dtype=wp.float16), ab: wp.array2d(dtype=wp.bfloat16),
                     bb: wp.array2d(dtype=wp.bfloat16), q: wp.array2d(dtype=wp.float32)):
    x = wp.tile_load(a, shape=(6, 8))
    y = wp.tile_load(b, shape=(8, 5))
    o = wp.tile_load(c, shape=(6, 5))
    wp.tile_matmul(x, y, o, alpha=0.5, beta=-1.3)
    wp.tile_store(c, o)
    z = wp.tile_load(h, shape=(8, 5))
    wp.tile_store(p, wp.tile_matmul(x, z))
    xb = wp.tile_load(ab, shape=(6, 8))
    yb = wp.tile_load(bb, shape=(8, 5))
    acc = wp.tile_zeros(shape=(6, 5), dtype=wp.float32)
    wp.tile_matmul(xb, yb, acc)
    wp.tile_store(q, acc)
