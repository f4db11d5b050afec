# Autodiff of tiles (Note [tile adjoints] in src/ir/adjoint.c): 1-d tiles
# loaded at offsets, the element-wise operators + - * / on tiles and
# tile_map of builtins (one and two tiles), tile_extract and t[i] of a
# tile, a tile times a scalar, tile_ones, stored back; the
# replay holds the tiles' values, so products and quotients of tiles
# differentiate exactly, as Warp's tile adjoints do.
# kern-test: tile_elementwise --adjoint --tiled --dim 3 a='rand(float32,12,seed=31)' b='rand(float32,12,seed=32)' out='zeros(float32,12)' out2='zeros(float32,12)' adj_a='zeros(float32,12)' adj_b='zeros(float32,12)' adj_out='rand(float32,12,seed=33)' adj_out2='arange(float32,12)'
# kern-skip: vulkan-llvmpipe (passes on lavapipe, 2026-11-29, but too slowly for CI: LLVM's build of the adjoint's unrolled tile loops took 221 s for tile_elementwise.py and about 15 minutes for four of these files)
# kern-check: adj_a
# kern-check: adj_b
import warp as wp


@wp.kernel
def tile_elementwise(a: wp.array(dtype=float), b: wp.array(dtype=float),
                     out: wp.array(dtype=float), out2: wp.array(dtype=float)):
    i = wp.tid()
    x = wp.tile_load(a, shape=4, offset=i * 4)
    y = wp.tile_load(b, shape=4, offset=i * 4)
    s = wp.tile_map(wp.sin, x)
    p = s * y + x / (y + wp.tile_map(wp.exp, x))
    q = wp.tile_map(wp.mul, p, x) - y
    wp.tile_store(out, q, offset=i * 4)
    e = wp.tile_extract(p, 2) * q[1]
    z = x * e + wp.tile_ones(shape=4, dtype=float)
    wp.tile_store(out2, wp.tile_map(wp.cos, q * x) * z, offset=i * 4)
