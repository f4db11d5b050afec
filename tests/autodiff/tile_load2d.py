# Autodiff of tiles (Note [tile adjoints] in src/ir/adjoint.c): 2-d tiles
# of more elements than Warp unrolls (loops kern runs forward in the
# replay), loaded and stored at offsets of 2-d arrays, partly past the
# array's edge, through tile_map of a @wp.func and products of tiles.
# kern-test: tile_load2d --adjoint --tiled --dim 2,2 a='rand(float32,7,37,seed=41)' b='rand(float32,7,37,seed=42)' out='zeros(float32,7,37)' adj_a='zeros(float32,7,37)' adj_b='zeros(float32,7,37)' adj_out='rand(float32,7,37,seed=43)'
# kern-skip: vulkan-llvmpipe (passes on lavapipe, 2026-11-29, but too slowly for CI: LLVM's build of the adjoint's unrolled tile loops took 221 s for tile_elementwise.py and about 15 minutes for four of these files)
# kern-check: adj_a
# kern-check: adj_b
import warp as wp


@wp.func
def smooth(x: float, y: float):
    return x * wp.tanh(y) + y * y


@wp.kernel
def tile_load2d(a: wp.array2d(dtype=float), b: wp.array2d(dtype=float),
                out: wp.array2d(dtype=float)):
    i, j = wp.tid()
    x = wp.tile_load(a, shape=(4, 20), offset=(i * 4, j * 20))
    y = wp.tile_load(b, shape=(4, 20), offset=(i * 4, j * 20))
    m = wp.tile_map(smooth, x, y)
    wp.tile_store(out, m * x * y, offset=(i * 4, j * 20))
