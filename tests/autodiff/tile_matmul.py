# Autodiff of tiles (Note [tile adjoints] in src/ir/adjoint.c):
# tile_matmul of float32 tiles (Warp's adj_A += adj_C B^T, adj_B +=
# A^T adj_C), of a transposed tile, accumulated into a third tile, and
# tile_sum of a product, which the replay computes for real so the
# product's gradient is exact.
# kern-test: tile_matmul --adjoint --tiled --dim 2 a='rand(float32,8,5,seed=51)' b='rand(float32,5,6,seed=52)' c='rand(float32,5,8,seed=53)' out='zeros(float32,8,6)' total='zeros(float32,2)' adj_a='zeros(float32,8,5)' adj_b='zeros(float32,5,6)' adj_c='zeros(float32,5,8)' adj_out='rand(float32,8,6,seed=54)' adj_total='ones(float32,2)'
# kern-skip: vulkan-llvmpipe (passes on lavapipe, 2026-11-29, but too slowly for CI: LLVM's build of the adjoint's unrolled tile loops took 221 s for tile_elementwise.py and about 15 minutes for four of these files)
# kern-check: adj_a
# kern-check: adj_b
# kern-check: adj_c
import warp as wp


@wp.kernel
def tile_matmul(a: wp.array2d(dtype=float), b: wp.array2d(dtype=float),
                c: wp.array2d(dtype=float), out: wp.array2d(dtype=float),
                total: wp.array(dtype=float)):
    i = wp.tid()
    x = wp.tile_load(a, shape=(4, 5), offset=(i * 4, 0))
    y = wp.tile_load(b, shape=(5, 6))
    z = wp.tile_load(c, shape=(5, 4), offset=(0, i * 4))
    m = wp.tile_matmul(x, y)
    n = wp.tile_map(wp.sin, m)
    wp.tile_matmul(wp.tile_transpose(z), y, n)
    wp.tile_store(out, n, offset=(i * 4, 0))
    s = wp.tile_sum(n * m)
    wp.tile_store(total, s, offset=i)
