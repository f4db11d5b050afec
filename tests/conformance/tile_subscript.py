# Tiles (issue #24): parts of tiles by subscript -- a row t[i] (a run-time
# index, also negative), slices with constant bounds and steps (negative
# steps, omitted bounds, t[::2, ::-1]), an integer tile as one axis's
# index (t[idx, :], a gather, negative entries from the end), t[i, :]
# collapsing an axis, and assigning a tile to a slice (t[0:2, :] = u),
# also into a tile whose parts were read before (unnamed parts are copies
# no later write can be seen through), and u = t copying (as Warp: a write
# into u leaves t as it was).
# kern-test: tile_subscript --dim 2 --tiled --block-dim 8 a='rand(float32,6,8,seed=61)' out='zeros(float32,2,11,8)'
# kern-check: out rtol=1e-6
import warp as wp


@wp.kernel
def tile_subscript(a: wp.array2d(dtype=float), out: wp.array3d(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(a, shape=(6, 8))
    wp.tile_store(out[i, 0], t[i + 1])
    wp.tile_store(out[i, 1], t[-1 - i])
    wp.tile_store(out[i, 2:4], t[4:6, :])
    wp.tile_store(out[i, 4:7, 0:4], t[::2, ::-2])
    wp.tile_store(out[i, 7, 0:3], t[i, 5:2:-1])
    idx = wp.tile_arange(0, 3, dtype=int) * 2 - wp.tile_full(shape=3, value=i, dtype=int)
    g = t[idx, :]
    wp.tile_store(out[i, 7, 3:8], g[2, 3:8])
    u = wp.tile_load(a, shape=(6, 8)) * 2.0
    u[0:2, :] = wp.tile_ones(shape=(2, 8), dtype=float)
    u[3, 1:4] = wp.tile_full(shape=3, value=9.0, dtype=float)
    wp.tile_store(out[i, 8:10], u[2:4])
    # parts read where they are made and never named leave t writable
    t[5, 0:2] = wp.tile_zeros(shape=2, dtype=float)
    c = t
    c[5, 2] = 3.0
    wp.tile_store(out[i, 10], t[5] + c[5])
