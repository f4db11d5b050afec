# Autodiff of tiles (Note [tile adjoints] in src/ir/adjoint.c) through
# the indexed builtins: tile_load_indexed gathering rows (an index of -1
# and one past the end read as zero) and columns at an offset,
# tile_store_indexed scattering rows and columns (those outside skipped),
# tile_atomic_add_indexed with repeated indices; tile_dot, tile_axpy and
# tile_randf (a constant); as Warp 1.19's tile adjoints differentiate
# them.
# kern-test: tile_indexed --adjoint --tiled --dim 2 --block-dim 1 a='rand(float32,6,5,seed=101)' idx='arange(int32,4)' out='zeros(float32,8,5)' sc='zeros(float32,6,5)' acc='zeros(float32,6,3)' d='zeros(float32,2)' adj_a='zeros(float32,6,5)' adj_idx='zeros(int32,4)' adj_out='rand(float32,8,5,seed=102)' adj_sc='rand(float32,6,5,seed=103)' adj_acc='rand(float32,6,3,seed=104)' adj_d='rand(float32,2,seed=105)'
# kern-skip: vulkan-llvmpipe (tile adjoints build too slowly on lavapipe for CI, as tile_elementwise.py says)
# kern-check: adj_a
import warp as wp


@wp.kernel
def tile_indexed(a: wp.array2d(dtype=float), idx: wp.array(dtype=int),
                 out: wp.array2d(dtype=float), sc: wp.array2d(dtype=float),
                 acc: wp.array2d(dtype=float), d: wp.array(dtype=float)):
    i = wp.tid()
    base = wp.tile_load(idx, shape=4)
    rows = base * 2 - wp.tile_full(shape=4, value=1, dtype=int) + wp.tile_full(shape=4, value=i, dtype=int)
    # rows: -1, 1, 3, 5 (i = 0) and 0, 2, 4, 6 (i = 1): -1 and 6 are outside
    t = wp.tile_load_indexed(a, indices=rows, shape=(4, 5))
    wp.tile_store(out, wp.tile_map(wp.sin, t), offset=(i * 4, 0))
    cols = wp.tile_load(idx, shape=3) * 2
    u = wp.tile_load_indexed(a, cols, shape=(2, 3), offset=(i, 0), axis=1)
    wp.tile_store_indexed(sc, rows, t * t, offset=(0, 0))
    rep = wp.tile_full(shape=4, value=2, dtype=int) - base / wp.tile_full(shape=4, value=2, dtype=int)
    # rep: 2, 2, 1, 1 (repeated rows accumulate)
    w = wp.tile_load(a, shape=(4, 3))
    wp.tile_atomic_add_indexed(acc, rep, w * u[0, 1], offset=(i, 0))
    rng = wp.rand_init(42, i)
    r = wp.tile_randf((4, 3), rng)
    v = wp.tile_map(wp.mul, w, r)
    y = w + v
    wp.tile_axpy(2.5, v, y)
    x = wp.tile_reshape(y, shape=(12,))
    d[i] = wp.tile_dot(x, x * x)[0]
