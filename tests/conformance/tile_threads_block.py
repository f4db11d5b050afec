# Tiles (issue #24): wp.tile(x) and wp.tile_from_thread with a block of
# threads.  The launch is tiled (wp.launch_tiled: i is the block's index),
# so every thread of a block has the same x and what the kernel stores does
# not depend on block_dim: the mean of wp.tile(x) (its sum over
# wp.block_dim()), a thread's own entry (wp.untile), a vector and a matrix
# gathered and summed over the thread axis, thread 0's value broadcast, a
# scatter-add of every thread's x (over block_dim), a masked scatter and a
# tile stack push and pop of lane 0's alone (l, the launch's last
# coordinate, is the thread's lane).
# On the CPU and Vulkan a block is one thread; on OpenCL (and CUDA) the
# block's 8 threads exchange their values through shared memory (Note
# [block exchange] in src/lower/check_tile.c).
# kern-test: tile_threads_block --dim 4 --tiled --block-dim 8 a='rand(float32,4,seed=43)' v='rand(vec3,4,seed=44)' out='zeros(float32,4,15)'
# kern-check: out rtol=1e-6
import warp as wp


@wp.kernel
def tile_threads_block(a: wp.array(dtype=float), v: wp.array(dtype=wp.vec3), out: wp.array2d(dtype=float)):
    i, l = wp.tid()
    x = a[i] * 2.0
    n = float(wp.block_dim())
    t = wp.tile(x)
    out[i, 0] = wp.tile_sum(t)[0] / n
    out[i, 1] = wp.untile(t + t)
    f = wp.tile_from_thread(shape=(2, 3), value=x + 1.0, thread_idx=0)
    out[i, 2] = wp.tile_sum(f)[0]
    vi = v[i]
    tv = wp.tile(vi)
    out[i, 3] = wp.tile_sum(tv)[0] / n
    out[i, 4] = wp.untile(tv)[2]
    m = wp.mat22(x, 1.0, 2.0, x * x)
    tm = wp.tile(m)
    out[i, 5] = wp.tile_sum(tm)[0] / n
    um = wp.untile(tm)
    out[i, 6] = um[1, 1]
    tp = wp.tile(vi, preserve_type=True)
    out[i, 7] = wp.untile(tp)[0]
    out[i, 8] = wp.tile_sum(wp.tile(x * 0.0 + 1.0))[0] / n
    sc = wp.tile_zeros(shape=3, dtype=float)
    wp.tile_scatter_add(sc, 1, x, True)
    wp.tile_scatter_masked(sc, 2, x + 3.0, l == 0)
    out[i, 9] = sc[1] / n
    out[i, 10] = sc[2]
    s = wp.tile_stack(capacity=4, dtype=float)
    slot = wp.tile_stack_push(s, x, l == 0)
    c = wp.tile_stack_count(s)
    pv, sl = wp.tile_stack_pop(s)
    if l == 0:
        out[i, 11] = float(slot)
        out[i, 13] = pv
        out[i, 14] = float(sl)
    out[i, 12] = float(c)
