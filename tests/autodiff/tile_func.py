# Autodiff of tiles (Note [tile adjoints] in src/ir/adjoint.c) in a
# @wp.func called twice, each call's tiles replayed anew: a load, a map,
# a product of tiles and a sum, returned as a scalar.
# One thread a block (--block-dim 1): every thread of a block stores
# out[i], and the adjoint of a store reads adj_out[i] and clears it (Warp
# 1.19's adj_array_store), so at 256 threads how many threads read it
# before one clears it is a race, in Warp as in kern (on an H200 all 256
# did: 256x the gradient; PoCL's work-items run in turn: 1x).
# kern-test: tile_func --adjoint --tiled --dim 2 --block-dim 1 a='rand(float32,8,seed=1)' out='zeros(float32,8)' adj_a='zeros(float32,8)' adj_out='rand(float32,8,seed=2)'
# kern-skip: vulkan-llvmpipe (passes on lavapipe, 2026-11-29, but too slowly for CI: LLVM's build of the adjoint's unrolled tile loops took 221 s for tile_elementwise.py and about 15 minutes for four of these files)
# kern-check: adj_a
import warp as wp


@wp.func
def f(a: wp.array(dtype=float), o: int):
    t = wp.tile_load(a, shape=4, offset=o)
    u = wp.tile_map(wp.sin, t)
    return wp.tile_extract(wp.tile_sum(u * t), 0)


@wp.kernel
def tile_func(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    s = f(a, i * 4)
    r = f(a, 4 - i * 4)
    out[i] = s * r
