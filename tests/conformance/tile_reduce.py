# Tiles (issue #24): wp.tile_sum, tile_min, tile_max and tile_reduce with
# wp.add, wp.mul, wp.min, wp.max and a @wp.func, on 1-d and 2-d tiles
# (the last tile partial: its zeros take part, as in Warp), read back with
# wp.tile_extract and stored as one-element tiles.
# kern-test: tile_reduce --dim 3 --tiled --block-dim 64 a='rand(float32,3,20,seed=8)' k='rand(int32,44,seed=9)' out='zeros(float32,3,6)' ki='zeros(int32,3,4)'
# kern-check: out rtol=1e-6
# kern-check: ki
import warp as wp


@wp.func
def absmax(x: float, y: float):
    return wp.max(wp.abs(x), wp.abs(y))


@wp.kernel
def tile_reduce(a: wp.array2d(dtype=float), k: wp.array(dtype=int), out: wp.array2d(dtype=float),
                ki: wp.array2d(dtype=int)):
    i = wp.tid()
    t = wp.tile_load(a, shape=(1, 20), offset=(i, 0)) - wp.tile_full(shape=(1, 20), value=0.5, dtype=float)
    out[i, 0] = wp.tile_extract(wp.tile_sum(t), 0)
    out[i, 1] = wp.tile_extract(wp.tile_min(t), 0)
    out[i, 2] = wp.tile_extract(wp.tile_max(t), 0)
    out[i, 3] = wp.tile_extract(wp.tile_reduce(wp.mul, t * 2.0), 0)
    out[i, 4] = wp.tile_extract(wp.tile_reduce(absmax, t), 0)
    out[i, 5] = wp.tile_extract(wp.tile_reduce(wp.add, t), 0)
    n = wp.tile_load(k, shape=16, offset=i * 16)
    ki[i, 0] = wp.tile_extract(wp.tile_sum(n), 0)
    ki[i, 1] = wp.tile_extract(wp.tile_reduce(wp.min, n), 0)
    ki[i, 2] = wp.tile_extract(wp.tile_reduce(wp.max, n), 0)
    ki[i, 3] = wp.tile_extract(n, 5) + wp.tile_extract(wp.tile_max(n), 0)
