# Tiles (issue #24): len() of a tile is its first dimension, a constant
# when the kernel is compiled, so wp.static(len(t)) takes it (Warp's
# test_tile.py tile_len_kernel).
# kern-test: tile_len --dim 2 --tiled --block-dim 8 a='rand(float32,8,4,seed=9)' out='zeros(int32,2,4)'
# kern-check: out
import warp as wp

TILE_M = wp.constant(6)


@wp.kernel
def tile_len(a: wp.array2d(dtype=float), out: wp.array2d(dtype=int)):
    i = wp.tid()
    x = wp.tile_load(a, shape=(TILE_M, 3))
    r = wp.tile_load(a[i], shape=4)
    out[i, 0] = wp.static(len(x))
    out[i, 1] = len(x) * 10 + len(r)
    out[i, 2] = wp.static(len(r))
    n = int(0)
    for _k in range(wp.static(len(r))):
        n += 1
    out[i, 3] = n
