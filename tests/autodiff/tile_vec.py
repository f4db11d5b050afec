# Autodiff of tiles of vectors and matrices (Note [tile adjoints] in
# src/ir/adjoint.c): tiles of wp.vec3 and wp.mat33 loaded from arrays of
# them, the element-wise + - and a tile times a scalar, tile_map of
# builtins on vectors (wp.cross, wp.dot, wp.mul of a matrix and a
# vector), tile_sum to a vec3 and its extract, stored back; as Warp
# 1.19's tile adjoints differentiate them.
# One thread a block (--block-dim 1): a store every thread of a block
# makes has a racy adjoint on a GPU, as tile_func.py says.
# kern-test: tile_vec --adjoint --tiled --dim 2 --block-dim 1 a='rand(vec3,8,seed=71)' b='rand(vec3,8,seed=72)' m='rand(mat33,8,seed=73)' out='zeros(vec3,8)' s='zeros(float32,8)' tot='zeros(vec3,2)' adj_a='zeros(vec3,8)' adj_b='zeros(vec3,8)' adj_m='zeros(mat33,8)' adj_out='rand(vec3,8,seed=74)' adj_s='rand(float32,8,seed=75)' adj_tot='rand(vec3,2,seed=76)'
# kern-skip: vulkan-llvmpipe (tile adjoints build too slowly on lavapipe for CI, as tile_elementwise.py says)
# kern-check: adj_a
# kern-check: adj_b
# kern-check: adj_m
import warp as wp


@wp.kernel
def tile_vec(a: wp.array(dtype=wp.vec3), b: wp.array(dtype=wp.vec3),
             m: wp.array(dtype=wp.mat33), out: wp.array(dtype=wp.vec3),
             s: wp.array(dtype=float), tot: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    x = wp.tile_load(a, shape=4, offset=i * 4)
    y = wp.tile_load(b, shape=4, offset=i * 4)
    c = wp.tile_map(wp.cross, x, y)
    z = (x + c) * 2.0 - y
    wp.tile_store(out, z, offset=i * 4)
    d = wp.tile_map(wp.dot, x, c + y)
    mt = wp.tile_load(m, shape=4, offset=i * 4)
    q = wp.tile_map(wp.mul, mt, wp.tile_map(wp.normalize, y))
    e = wp.tile_map(wp.length, q)
    wp.tile_store(s, d + e, offset=i * 4)
    t = wp.tile_sum(z)
    tot[i] = wp.tile_extract(t, 0) + wp.tile_extract(x, 1)
