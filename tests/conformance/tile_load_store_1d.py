# Tiles (issue #24): 1-d wp.tile_load / wp.tile_store at the array's edge
# (the last tile runs past the end: its missing elements read as zero and
# are not stored), element-wise + - *, scaling by a scalar, unary minus.
# kern-test: tile_load_store_1d --dim 4 --tiled --block-dim 64 a='rand(float32,29,seed=3)' b='rand(float32,29,seed=4)' out='full(float32,32,-1)' neg='zeros(float32,29)'
# kern-check: out
# kern-check: neg
import warp as wp

TILE = wp.constant(8)


@wp.kernel
def tile_load_store_1d(a: wp.array(dtype=float), b: wp.array(dtype=float), out: wp.array(dtype=float),
                       neg: wp.array(dtype=float)):
    i = wp.tid()
    x = wp.tile_load(a, shape=TILE, offset=i * TILE)
    y = wp.tile_load(b, shape=(TILE,), offset=(i * TILE,))
    z = (x + y) * x - y * 0.5 + 2.0 * x
    wp.tile_store(out, z, offset=i * TILE)
    wp.tile_store(neg, -x, offset=i * TILE)
