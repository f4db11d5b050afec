# Tiles (issue #24): 2-d wp.tile_load / wp.tile_store with a tuple offset
# on a 7x10 array cut into 4x4 tiles: the tiles on the right and bottom
# edges are partial (zeros read, nothing stored past the edge); int32
# elements, and a tile local reassigned in a loop.
# kern-test: tile_load_store_2d --dim 2,3 --tiled --block-dim 32 a='rand(int32,7,10,seed=5)' out='full(int32,7,10,-1)' pad='zeros(int32,8,12)'
# kern-check: out
# kern-check: pad
import warp as wp


@wp.kernel
def tile_load_store_2d(a: wp.array2d(dtype=wp.int32), out: wp.array2d(dtype=wp.int32),
                       pad: wp.array2d(dtype=wp.int32)):
    i, j = wp.tid()
    t = wp.tile_load(a, shape=(4, 4), offset=(i * 4, j * 4))
    acc = wp.tile_zeros(shape=(4, 4), dtype=wp.int32)
    for k in range(3):
        acc = acc + t
    wp.tile_store(out, acc - t, offset=(i * 4, j * 4))
    wp.tile_store(pad, t, offset=(i * 4, j * 4), bounds_check=True)
