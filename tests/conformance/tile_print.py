# Tiles (issue #24): print(t) and wp.print(t) of tiles of float32, int32
# and float64, 1-d, 2-d (a row, a column, a 1x1), the one-element tile of
# tile_sum, a tile made by an expression, and the layout of 3-d and 4-d
# tiles (their first axes of length 1: Warp 1.19 starts a later 2-d block
# at a wrong offset, Note [tile print] in src/lower/check_tile.c); the
# block's first thread prints, once per block.  Compared with Warp's
# output byte for byte.
# kern-test: tile_print --dim 1 --tiled --block-dim 32 x='rand(float32,3,4,seed=7)' n='rand(int32,6,seed=8)' d='rand(float64,3,seed=9)' c='rand(float32,1,2,3,seed=10)' q='rand(int32,1,1,2,2,seed=11)' out='zeros(float32,3,4)'
# kern-stdout
# kern-check: out
import warp as wp


@wp.kernel
def tile_print(x: wp.array2d(dtype=float), n: wp.array(dtype=int), d: wp.array(dtype=wp.float64),
               c: wp.array3d(dtype=float), q: wp.array4d(dtype=int),
               out: wp.array2d(dtype=float)):
    t = wp.tile_load(x, shape=(3, 4))
    print(t)
    wp.print(t * 1000.0)
    row = wp.tile_load(x[1], shape=4)
    print(row)
    print(wp.tile_load(x, shape=(3, 1), offset=(0, 2)))
    print(wp.tile_full(shape=(1, 1), value=-2.5e-7, dtype=float))
    ti = wp.tile_load(n, shape=6) - wp.tile_full(shape=6, value=50, dtype=int)
    print(ti)
    print(wp.tile_load(d, shape=3) / wp.tile_full(shape=3, value=wp.float64(3.0), dtype=wp.float64))
    print(wp.tile_sum(t))
    print(wp.tile_load(c, shape=(1, 2, 3)))
    print(wp.tile_load(q, shape=(1, 1, 2, 2)))
    wp.tile_store(out, t)
