# Tiles (issue #24): wp.tile_atomic_add of each block's tile into one
# array (every block adds to the same 10 elements, the last ones past the
# end skipped), 2-d with a tuple offset, and its returned tile of old
# values when one block owns the elements.
# kern-test: tile_atomic_add --dim 5 --tiled --block-dim 64 a='rand(int32,5,12,seed=21)' acc='zeros(int32,10)' g='zeros(float32,4,3)' old='zeros(int32,5,12)'
# kern-check: acc
# kern-check: g
# kern-check: old
import warp as wp


@wp.kernel
def tile_atomic_add(a: wp.array2d(dtype=int), acc: wp.array(dtype=int), g: wp.array2d(dtype=float),
                    old: wp.array2d(dtype=int)):
    i = wp.tid()
    t = wp.tile_load(a, shape=(1, 12), offset=(i, 0))
    row = wp.tile_load(a[i], shape=12)
    wp.tile_atomic_add(acc, row)
    wp.tile_atomic_add(g, wp.tile_ones(shape=(2, 2), dtype=float), offset=(i % 3, 1))
    o = wp.tile_atomic_add(old, t, offset=(i, 0))
    wp.tile_atomic_add(old, o + wp.tile_ones(shape=(1, 12), dtype=int), offset=(i, 0))
