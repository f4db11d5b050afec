# Autodiff of tiles (Note [tile adjoints] in src/ir/adjoint.c) through
# @wp.funcs that take and return tiles (Note [tile parameters] in
# src/lower/check_tile.c): a tile squared plus a tile times a scalar, a
# function of two tiles called twice, the same tile passed as both, and
# one calling another, one returning its parameter; as Warp 1.19's tile
# adjoints differentiate them.
# One thread a block (--block-dim 1): a store every thread of a block
# makes has a racy adjoint on a GPU, as tile_func.py says.
# kern-test: tile_func_tiles --adjoint --tiled --dim 2 --block-dim 1 a='rand(float32,8,seed=91)' b='rand(float32,8,seed=92)' out='zeros(float32,8)' tot='zeros(float32,2)' adj_a='zeros(float32,8)' adj_b='zeros(float32,8)' adj_out='rand(float32,8,seed=93)' adj_tot='rand(float32,2,seed=94)'
# kern-skip: vulkan-llvmpipe (tile adjoints build too slowly on lavapipe for CI, as tile_elementwise.py says)
# kern-check: adj_a
# kern-check: adj_b
import warp as wp


@wp.func
def poly(t: wp.tile(dtype=float, shape=(4,)), c: float):
    return t * t + t * c


@wp.func
def mix(x: wp.tile(dtype=float, shape=(4,)), y: wp.tile(dtype=float, shape=(4,))):
    return wp.tile_map(wp.mul, wp.tile_map(wp.sin, x), poly(y, 2.0))


@wp.func
def same(t: wp.tile(dtype=float, shape=(4,))):
    return t


@wp.kernel
def tile_func_tiles(a: wp.array(dtype=float), b: wp.array(dtype=float),
                    out: wp.array(dtype=float), tot: wp.array(dtype=float)):
    i = wp.tid()
    x = wp.tile_load(a, shape=4, offset=i * 4)
    y = wp.tile_load(b, shape=4, offset=i * 4)
    p = mix(x, y)
    q = mix(y, p)
    wp.tile_store(out, q + poly(x, a[i]), offset=i * 4)
    s = wp.tile_sum(mix(x, x) * same(y))
    tot[i] = wp.tile_extract(s, 0)
