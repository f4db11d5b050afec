# Tiles (issue #24): wp.tile_map with builtins (wp.sin, wp.mul, wp.where
# over three tiles) and @wp.func functions of one and two tiles, also
# changing the element type (a float tile mapped to int32).
# kern-test: tile_map --dim 2,2 --tiled --block-dim 64 a='rand(float32,6,8,seed=11)' b='rand(float32,6,8,seed=12)' out='zeros(float32,6,8)' two='zeros(float32,6,8)' q='zeros(int32,6,8)'
# kern-check: out
# kern-check: two
# kern-check: q
import warp as wp


@wp.func
def blend(x: float, y: float):
    return x * 0.25 + wp.sqrt(y)


@wp.func
def bucket(x: float):
    return int(x * 10.0)


@wp.kernel
def tile_map(a: wp.array2d(dtype=float), b: wp.array2d(dtype=float), out: wp.array2d(dtype=float),
             two: wp.array2d(dtype=float), q: wp.array2d(dtype=int)):
    i, j = wp.tid()
    x = wp.tile_load(a, shape=(3, 4), offset=(i * 3, j * 4))
    y = wp.tile_load(b, shape=(3, 4), offset=(i * 3, j * 4))
    wp.tile_store(out, wp.tile_map(wp.sin, x), offset=(i * 3, j * 4))
    m = wp.tile_map(blend, x, y) + wp.tile_map(wp.mul, x, y)
    wp.tile_store(two, m, offset=(i * 3, j * 4))
    wp.tile_store(q, wp.tile_map(bucket, x), offset=(i * 3, j * 4))
