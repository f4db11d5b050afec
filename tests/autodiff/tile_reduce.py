# Autodiff of tiles (Note [tile adjoints] in src/ir/adjoint.c): float64
# tiles, a tile_matmul whose inner dimension is longer than Warp unrolls
# (its dot products carried through a loop kern runs forward in the
# replay), tile_sum of a 2-d tile and along an axis, a tile_sum used
# again through tile_broadcast (its value enters the result, so the
# replay must have computed it), and tile_atomic_add into an array.
# (tile_reduce, tile_min and tile_max are refused: Warp 1.19 has no
# adjoint for them, its gradient through them is zero.)
# kern-test: tile_reduce --adjoint --tiled --dim 2 a='rand(float64,6,20,seed=61)' b='rand(float64,20,3,seed=62)' out='zeros(float64,6,3)' acc='zeros(float64,3,3)' red='zeros(float64,6)' adj_a='zeros(float64,6,20)' adj_b='zeros(float64,20,3)' adj_out='rand(float64,6,3,seed=63)' adj_acc='rand(float64,3,3,seed=64)' adj_red='arange(float64,6)'
# kern-skip: vulkan-llvmpipe (passes on lavapipe, 2026-11-29, but too slowly for CI: LLVM's build of the adjoint's unrolled tile loops took 221 s for tile_elementwise.py and about 15 minutes for four of these files)
# kern-check: adj_a
# kern-check: adj_b
import warp as wp


@wp.kernel
def tile_reduce(a: wp.array2d(dtype=wp.float64), b: wp.array2d(dtype=wp.float64),
                out: wp.array2d(dtype=wp.float64), acc: wp.array2d(dtype=wp.float64),
                red: wp.array(dtype=wp.float64)):
    i = wp.tid()
    x = wp.tile_load(a, shape=(3, 20), offset=(i * 3, 0))
    y = wp.tile_load(b, shape=(20, 3))
    m = wp.tile_matmul(x, y)
    s = wp.tile_sum(m)
    sb = wp.tile_broadcast(s, shape=(3, 3))
    p = wp.tile_map(wp.mul, m, sb)
    wp.tile_store(out, p, offset=(i * 3, 0))
    wp.tile_atomic_add(acc, m * m)
    r = wp.tile_sum(x * x, axis=1)
    wp.tile_store(red, r, offset=i * 3)
