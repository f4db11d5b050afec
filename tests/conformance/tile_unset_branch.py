# Tiles (issue #24): a tile name assigned only in the branches of an
# if/elif chain without else (Warp's test_tile_atomic_bitwise does this).
# Warp's tile variables start zeroed, so where no branch ran the name holds
# the zero tile (Note [tiles assigned on some paths]); block i takes branch
# i, and blocks 3 and 4 take none.  The float tile is assigned in one if
# only, with a tile of a tile_load.
# kern-test: tile_unset_branch --dim 5 --tiled --block-dim 32 a='rand(uint32,5,8,seed=3)' b='rand(uint32,5,8,seed=4)' x='rand(float32,5,6,seed=5)' c='zeros(uint32,5,8)' y='zeros(float32,5,6)'
# kern-check: c
# kern-check: y
import warp as wp


@wp.kernel
def tile_unset_branch(a: wp.array2d(dtype=wp.uint32), b: wp.array2d(dtype=wp.uint32),
                      x: wp.array2d(dtype=float), c: wp.array2d(dtype=wp.uint32),
                      y: wp.array2d(dtype=float)):
    i = wp.tid()
    s1 = wp.tile_load(a, shape=(1, 8), offset=(i, 0))
    s2 = wp.tile_load(b, shape=(1, 8), offset=(i, 0))
    if i == 0:
        s3 = s1 & s2
    elif i == 1:
        s3 = s1 | s2
    elif i == 2:
        s3 = s1 ^ s2
    wp.tile_store(c, s3, offset=(i, 0))
    if i % 2 == 1:
        t = wp.tile_load(x, shape=(1, 6), offset=(i, 0))
    wp.tile_store(y, t, offset=(i, 0))
