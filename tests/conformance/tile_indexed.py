# Tiles (issue #24): wp.tile_load_indexed, tile_store_indexed and
# tile_atomic_add_indexed gathering/scattering along axis 0 and axis 1,
# with offsets, indices of -1 and past the end (read as zero, skipped),
# repeated indices accumulating in the atomic form and its returned old
# values (each block adds into its own part of acc, so the old values do
# not depend on the order of the blocks).
# kern-test: tile_indexed --dim 2 --tiled --block-dim 16 a='rand(float32,6,5,seed=21)' idx='arange(int32,4)' out='zeros(float32,2,4,5)' sc='zeros(float32,2,6,5)' acc='zeros(float32,2,6,3)' old='zeros(float32,2,4,3)'
# kern-check: out rtol=1e-6
# kern-check: sc rtol=1e-6
# kern-check: acc rtol=1e-6
# kern-check: old rtol=1e-6
import warp as wp


@wp.kernel
def tile_indexed(a: wp.array2d(dtype=float), idx: wp.array(dtype=int), out: wp.array3d(dtype=float),
                 sc: wp.array3d(dtype=float), acc: wp.array3d(dtype=float), old: wp.array3d(dtype=float)):
    i = wp.tid()
    base = wp.tile_load(idx, shape=4)
    rows = base * 2 - wp.tile_full(shape=4, value=1, dtype=int) + wp.tile_full(shape=4, value=i, dtype=int)
    # rows: -1, 1, 3, 5 (i = 0) and 0, 2, 4, 6 (i = 1): -1 and 6 are outside
    t = wp.tile_load_indexed(a, indices=rows, shape=(4, 5))
    wp.tile_store(out[i], t)
    cols = wp.tile_load(idx, shape=3) * 2
    u = wp.tile_load_indexed(a, cols, shape=(2, 3), offset=(i, 0), axis=1)
    wp.tile_store(out[i, 0:2, 0:3], u + u)
    wp.tile_store_indexed(sc[i], rows, t * 3.0)
    wp.tile_store_indexed(sc[i], cols, u, offset=(4, 0), axis=1)
    rep = wp.tile_full(shape=4, value=2, dtype=int) - base / wp.tile_full(shape=4, value=2, dtype=int)
    # rep: 2, 2, 1, 1 (repeated rows accumulate)
    ones = wp.tile_load(a, shape=(4, 3))
    o = wp.tile_atomic_add_indexed(acc[i], rep, ones, offset=(i, 0))
    wp.tile_store(old[i], o)
    wp.tile_atomic_add_indexed(acc[i], rows, ones * 10.0)
    wp.tile_atomic_add_indexed(acc[i], rep, ones)
