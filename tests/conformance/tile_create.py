# Tiles (issue #24): wp.tile_zeros, tile_ones, tile_full and tile_arange
# (int and float, one to three arguments, dtype=), stored side by side.
# kern-test: tile_create --dim 2 --tiled --block-dim 16 f='zeros(float32,2,6)' n='zeros(int32,2,5)' d='zeros(float64,2,4)' v='zeros(vec3,2,2)'
# kern-check: f
# kern-check: n
# kern-check: d
# kern-check: v
import warp as wp


@wp.kernel
def tile_create(f: wp.array2d(dtype=float), n: wp.array2d(dtype=int), d: wp.array2d(dtype=wp.float64),
                v: wp.array2d(dtype=wp.vec3)):
    i = wp.tid()
    wp.tile_store(f, wp.tile_ones(shape=(1, 2), dtype=float), offset=(i, 0))
    wp.tile_store(f, wp.tile_full(shape=(1, 2), value=2.5, dtype=float) * float(i + 1), offset=(i, 2))
    wp.tile_store(f, wp.tile_zeros(shape=(1, 2)), offset=(i, 4))
    wp.tile_store(n, wp.tile_full((1, 5), i + 7, dtype=int), offset=(i, 0))
    r = wp.tile_arange(1.0, 3.0, 0.5, dtype=wp.float64)
    if i == 0:
        wp.tile_store(d, wp.tile_full(shape=(1, 4), value=wp.tile_extract(r, 3), dtype=wp.float64), offset=(0, 0))
    else:
        a = wp.tile_arange(4, dtype=wp.float64)
        b = wp.tile_arange(2, 10, 2)
        wp.tile_store(d, wp.tile_full(shape=(1, 4), value=wp.tile_extract(a, 3) + wp.float64(wp.tile_extract(b, 2)),
                                      dtype=wp.float64), offset=(1, 0))
    wp.tile_store(v, wp.tile_ones(shape=(1, 2), dtype=wp.vec3) * float(i + 2), offset=(i, 0))
