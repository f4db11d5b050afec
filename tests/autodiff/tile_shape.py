# Autodiff of tiles (Note [tile adjoints] in src/ir/adjoint.c) through
# the builtins that make constants, change a tile's type or shape, or
# give indices: tile_full of a constant, tile_arange, 2-d tile_ones and
# tile_zeros, tile_astype to float64 and back, tile_reshape, tile_squeeze
# and tile_view (kern copies a view, Warp shares its storage: the same
# gradient), tile_argmax and tile_argmin (indices, no gradient, the
# first of equal elements); as Warp 1.19's tile adjoints differentiate
# them.
# One thread a block (--block-dim 1): a store every thread of a block
# makes has a racy adjoint on a GPU, as tile_func.py says.
# kern-test: tile_shape --adjoint --tiled --dim 2 --block-dim 1 a='rand(float32,8,seed=81)' out='zeros(float32,8)' out2='zeros(float32,8)' out3='zeros(float32,4)' adj_a='zeros(float32,8)' adj_out='rand(float32,8,seed=82)' adj_out2='rand(float32,8,seed=83)' adj_out3='arange(float32,4)'
# kern-skip: vulkan-llvmpipe (tile adjoints build too slowly on lavapipe for CI, as tile_elementwise.py says)
# kern-check: adj_a
import warp as wp


@wp.kernel
def tile_shape(a: wp.array(dtype=float), out: wp.array(dtype=float),
               out2: wp.array(dtype=float), out3: wp.array(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(a, shape=4, offset=i * 4)
    f = wp.tile_full(shape=4, value=3.0, dtype=float)
    r = wp.tile_arange(1.0, 9.0, 2.0, dtype=float)
    d = wp.tile_astype(t * f + r * t, dtype=wp.float64)
    e = wp.tile_astype(d * d, dtype=float)
    m = wp.tile_reshape(e, shape=(2, 2))
    o = wp.tile_ones(shape=(2, 2), dtype=float)
    z = wp.tile_zeros(shape=(2, 2), dtype=float)
    u = wp.tile_map(wp.add, m, o + z)
    wp.tile_store(out, wp.tile_reshape(u, shape=(4,)), offset=i * 4)
    q = wp.tile_squeeze(wp.tile_reshape(wp.tile_map(wp.sin, t), shape=(1, 4)))
    v = wp.tile_view(wp.tile_reshape(q * t, shape=(2, 2)), offset=(1,))
    wp.tile_store(out2, v, offset=i * 4 + 1)
    ka = wp.tile_argmax(wp.tile_map(wp.floor, t * 2.0))
    kb = wp.tile_argmin(t * t)
    out3[i * 2] = a[i * 4 + ka[0]] * float(kb[0] + 1)
    out3[i * 2 + 1] = wp.tile_extract(t, kb[0]) * float(ka[0])
