# Tiles (issue #24): wp.tile(x) of a scalar, a vector (shape (3, 1)), a
# matrix (shape (2, 2, 1)) and with preserve_type=True, wp.untile back to
# per-thread values (a matrix from a tile of shape (2, 2, 1)), wp.tile_from_thread, tile_scatter_add and
# tile_scatter_masked (has_value True and False), on the CPU where a block is
# one thread (Warp's CPU: "the effective block width is 1"), so each
# thread's tile has one entry along the thread axis.  On CUDA and OpenCL
# wp.tile(x) has block_dim entries, so what this file stores depends on
# block_dim there (and tile_reshape(tv, shape=(3,)) is an error): it runs on
# the CPU only; tile_threads_block.py runs the same builtins on every
# backend with results that do not depend on block_dim, and
# tests/errors/tile_threads_gpu.sh checks results that do against NumPy.
# kern-skip: opencl (its results depend on block_dim there; tile_threads_block.py covers OpenCL)
# kern-targets: c
# kern-test: tile_threads --dim 4 --tiled --block-dim 8 a='rand(float32,4,seed=41)' v='rand(vec3,4,seed=42)' out='zeros(float32,4,16)' ov='zeros(vec3,4,2)'
# kern-check: out rtol=1e-6
# kern-check: ov rtol=1e-6
import warp as wp


@wp.kernel
def tile_threads(a: wp.array(dtype=float), v: wp.array(dtype=wp.vec3), out: wp.array2d(dtype=float),
                 ov: wp.array2d(dtype=wp.vec3)):
    i = wp.tid()
    x = a[i] * 2.0
    t = wp.tile(x)
    wp.tile_store(out[i, 0:1], t + t)
    out[i, 1] = wp.untile(wp.tile_sum(t) * 3.0)
    vi = v[i]
    tv = wp.tile(vi)
    wp.tile_store(out[i, 2:5], wp.tile_reshape(tv, shape=(3,)))
    ov[i, 0] = wp.untile(tv) * 2.0
    tp = wp.tile(vi, preserve_type=True)
    ov[i, 1] = wp.untile(tp) + v[i]
    m = wp.mat22(x, 1.0, 2.0, x * x)
    tm = wp.tile(m)
    out[i, 5] = wp.tile_sum(tm)[0]
    um = wp.untile(tm) * 2.0
    out[i, 12] = um[0, 0]
    out[i, 13] = um[0, 1]
    out[i, 14] = um[1, 0]
    out[i, 15] = um[1, 1]
    f = wp.tile_from_thread(shape=(2, 3), value=x + 1.0, thread_idx=0)
    out[i, 6] = wp.tile_sum(f)[0]
    out[i, 7] = float(wp.block_dim())
    sc = wp.tile_zeros(shape=4, dtype=float)
    wp.tile_scatter_add(sc, 1, x, True)
    wp.tile_scatter_add(sc, 1, x, True)
    wp.tile_scatter_add(sc, 0, x, False)
    wp.tile_scatter_masked(sc, 2, x * 3.0, True)
    wp.tile_scatter_masked(sc, 3, 7.0, False)
    wp.tile_store(out[i, 8:12], sc)
