# Tiles (issue #24): the operators / & | ^ on tiles, tile * tile and
# tile / tile with a scalar tile against a vector tile, a constant divided
# by a tile, and reductions along one axis (wp.tile_sum(t, axis=k),
# wp.tile_reduce(op, t, axis=k)) on 1-d, 2-d and 3-d tiles, the last block
# partial (its zeros read from outside the array take part, as in Warp).
# kern-test: tile_ops_axis --dim 2 --tiled --block-dim 64 a='rand(float32,2,12,seed=3)' b='rand(float32,2,12,seed=4)' k='rand(int32,40,seed=5)' v='rand(vec3,12,seed=6)' c='rand(float32,2,3,4,seed=7)' out='zeros(float32,2,12)' ki='zeros(int32,2,3,16)' ov='zeros(vec3,2,12)' sx='zeros(float32,2,4,12)' s3='zeros(float32,2,3,4)'
# kern-check: out rtol=1e-6
# kern-check: ki
# kern-check: ov rtol=1e-6
# kern-check: sx rtol=1e-6
# kern-check: s3 rtol=1e-6
import warp as wp


@wp.func
def absmax(x: float, y: float):
    return wp.max(wp.abs(x), wp.abs(y))


@wp.kernel
def tile_ops_axis(a: wp.array2d(dtype=float), b: wp.array2d(dtype=float), k: wp.array(dtype=int),
                  v: wp.array(dtype=wp.vec3), c: wp.array3d(dtype=float), out: wp.array2d(dtype=float),
                  ki: wp.array3d(dtype=int), ov: wp.array2d(dtype=wp.vec3), sx: wp.array3d(dtype=float),
                  s3: wp.array3d(dtype=float)):
    i = wp.tid()
    ta = wp.tile_load(a[i], shape=12)
    tb = wp.tile_load(b[i], shape=12) + wp.tile_full(shape=12, value=2.0, dtype=float)
    q = ta / tb + 3.0 / tb - ta / 4.0
    wp.tile_store(out[i], q)
    n = wp.tile_load(k, shape=16, offset=i * 24)
    m = wp.tile_full(shape=16, value=6, dtype=int)
    wp.tile_store(ki[i, 0], n & m)
    wp.tile_store(ki[i, 1], (n | m) ^ wp.tile_arange(16, dtype=int))
    wp.tile_store(ki[i, 2], n / (m - wp.tile_ones(shape=16, dtype=int)))
    tv = wp.tile_load(v, shape=12)
    wp.tile_store(ov[i], ta * tv + tv / tb - tv * wp.vec3(1.0, 2.0, 3.0)[i])
    t2 = wp.tile_load(a, shape=(2, 12))
    wp.tile_store(sx[i, 0], wp.tile_sum(t2, axis=0))
    wp.tile_store(sx[i, 1, 0:2], wp.tile_sum(t2, axis=1))
    wp.tile_store(sx[i, 2], wp.tile_reduce(absmax, t2 - wp.tile_full(shape=(2, 12), value=0.5, dtype=float), axis=0))
    wp.tile_store(sx[i, 3, 0:1], wp.tile_sum(ta, axis=0))
    t3 = wp.tile_load(c, shape=(2, 3, 4), offset=(i, 0, 0))
    wp.tile_store(s3[i], wp.tile_reduce(wp.mul, t3, axis=0))
    wp.tile_store(s3[i, 0:1], wp.tile_reduce(wp.max, t3, 1))
    s3[i, 1, 0] = wp.tile_sum(t3, axis=2)[1, 2]
