# Tiles (issue #24): wp.tile_argmax / tile_argmin (ties: the first in
# row-major order, as Warp's CPU), tile_scan_inclusive / _exclusive /
# scan_max_inclusive / scan_min_inclusive on 1-d and 2-d tiles (the
# row-major sequence), tile_sort of keys and values (distinct keys: Warp
# leaves the order of equal keys unspecified), tile_dot of scalar and
# vector tiles, tile_axpy, in-place += -= &= |= ^= on tiles, and
# tile_randf / tile_randi with and without a range (Warp's sequence: the
# draws of rand_init(rng) in row-major order where a block is one thread).
# kern-test: tile_scan_sort --dim 2 --tiled --block-dim 1 a='rand(float32,2,12,seed=51)' k='rand(int32,2,12,seed=52)' v='rand(vec3,8,seed=53)' out='zeros(float32,2,6,12)' ki='zeros(int32,2,8,12)'
# kern-check: out rtol=1e-6
# kern-check: ki
import warp as wp


@wp.kernel
def tile_scan_sort(a: wp.array2d(dtype=float), k: wp.array2d(dtype=int), v: wp.array(dtype=wp.vec3),
                   out: wp.array3d(dtype=float), ki: wp.array3d(dtype=int)):
    i = wp.tid()
    t = wp.tile_load(a[i], shape=12)
    n = wp.tile_load(k[i], shape=12)
    ki[i, 0, 0] = wp.tile_argmax(t)[0]
    ki[i, 0, 1] = wp.tile_argmin(t)[0]
    ki[i, 0, 2] = wp.tile_argmax(n)[0]
    ki[i, 0, 3] = wp.tile_argmin(n)[0]
    t2 = wp.tile_load(a, shape=(2, 6), offset=(0, i * 6))
    ki[i, 0, 4] = wp.tile_argmax(t2)[0]
    wp.tile_store(out[i, 0], wp.tile_scan_inclusive(t))
    wp.tile_store(out[i, 1], wp.tile_scan_exclusive(t))
    wp.tile_store(out[i, 2, 0:6], wp.tile_reshape(wp.tile_scan_max_inclusive(t2), shape=(12,)))
    wp.tile_store(ki[i, 1], wp.tile_scan_inclusive(n))
    wp.tile_store(ki[i, 2], wp.tile_scan_exclusive(n))
    wp.tile_store(ki[i, 3], wp.tile_scan_min_inclusive(n))
    keys = t * 1.0
    vals = wp.tile_arange(12, dtype=int)
    wp.tile_sort(keys, vals)
    wp.tile_store(out[i, 3], keys)
    wp.tile_store(ki[i, 4], vals)
    tv = wp.tile_load(v, shape=8)
    ki[i, 0, 5] = int(wp.tile_dot(tv, tv)[0] * 1000.0)
    out[i, 4, 0] = wp.tile_dot(t, t * 2.0)[0]
    d = wp.tile_zeros(shape=12, dtype=float)
    wp.tile_axpy(2.5, t, d)
    wp.tile_axpy(-1.0, d * d, d)
    d += t
    d -= wp.tile_ones(shape=12, dtype=float)
    wp.tile_store(out[i, 4, 1:12], wp.tile_view(d, offset=(1,), shape=(11,)))
    m = n * 1
    m &= wp.tile_full(shape=12, value=3, dtype=int)
    m |= wp.tile_full(shape=12, value=8, dtype=int)
    m ^= n
    wp.tile_store(ki[i, 5], m)
    rng = wp.rand_init(42, i)
    wp.tile_store(out[i, 5], wp.tile_randf(12, rng))
    wp.tile_store(ki[i, 6], wp.tile_randi(12, rng, 0, 100))
    wp.tile_store(ki[i, 7], wp.tile_randi(12, rng + wp.uint32(1)))
    r2 = wp.tile_randf((3, 4), rng, 2.0, 5.0)
    out[i, 2, 6] = wp.tile_sum(r2)[0]
