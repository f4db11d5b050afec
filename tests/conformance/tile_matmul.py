# Tiles (issue #24): wp.tile_matmul of float32 tiles, a tiled GEMM (a loop
# over K accumulating into an out tile in place), the two-argument form
# with alpha, and alpha/beta on float64; the last tiles are partial.
# kern-test: tile_matmul --dim 2,2 --tiled --block-dim 64 a='rand(float32,10,12,seed=31)' b='rand(float32,12,7,seed=32)' c='zeros(float32,10,7)' a64='rand(float64,4,3,seed=33)' b64='rand(float64,3,5,seed=34)' c64='rand(float64,4,5,seed=35)' s='zeros(float32,2,2)'
# why: 12 products summed per element; Warp's CPU sums in another order
# kern-check: c rtol=1e-5 atol=1e-6
# kern-check: c64 rtol=1e-12 atol=1e-14
# kern-check: s rtol=1e-5 atol=1e-6
import warp as wp

TM = wp.constant(5)
TN = wp.constant(4)
TK = wp.constant(4)


@wp.kernel
def tile_matmul(a: wp.array2d(dtype=float), b: wp.array2d(dtype=float), c: wp.array2d(dtype=float),
                a64: wp.array2d(dtype=wp.float64), b64: wp.array2d(dtype=wp.float64),
                c64: wp.array2d(dtype=wp.float64), s: wp.array2d(dtype=float)):
    i, j = wp.tid()
    acc = wp.tile_zeros(shape=(TM, TN), dtype=float)
    for k in range(3):
        x = wp.tile_load(a, shape=(TM, TK), offset=(i * TM, k * TK))
        y = wp.tile_load(b, shape=(TK, TN), offset=(k * TK, j * TN))
        wp.tile_matmul(x, y, acc)
    wp.tile_store(c, acc, offset=(i * TM, j * TN))
    x2 = wp.tile_load(a, shape=(2, 3), offset=(i, j))
    y2 = wp.tile_load(b, shape=(3, 1), offset=(j, i))
    p = wp.tile_matmul(x2, y2, alpha=0.5)
    s[i, j] = wp.tile_extract(wp.tile_sum(p), 0)
    if i == 0 and j == 0:
        x3 = wp.tile_load(a64, shape=(4, 3))
        y3 = wp.tile_load(b64, shape=(3, 5))
        o = wp.tile_load(c64, shape=(4, 5))
        wp.tile_matmul(x3, y3, o, alpha=wp.float64(2.0), beta=wp.float64(-0.5))
        wp.tile_store(c64, o)
