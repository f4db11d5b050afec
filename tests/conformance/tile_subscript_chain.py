# Tiles (issue #24): chains of tile subscripts, each bracket applied to the
# part the one before it gave, as Warp does -- slices of slices with
# negative steps (r[::-1][::2]), a slice then an integer (t[1:4][0] is
# row 1, NumPy's reading, not an array's), a row then a slice or a gather
# (t[2][1:7:2], t[-1][idx]), a gather then a slice or a row (r[idx][::-1],
# t[idx][1]), a slice then a gather, gathers of rows of a 2-d tile
# (t[idx], t[idx, :]), an index tile of negative and repeated entries,
# subscripts of a builtin's result (wp.tile_arange(...)[::-1][::4]), an
# integer index that is itself a chain's element, and wp.tile_view with
# slice(start, stop, step) offsets whose bounds are negative or out of
# range (normalised against the tile's shape as a subscript's are), mixed
# with a run-time integer offset.
# kern-test: tile_subscript_chain --dim 2 --tiled --block-dim 8 a='rand(float32,6,8,seed=67)' out='zeros(float32,2,17,8)'
# kern-check: out rtol=1e-6
import warp as wp


@wp.kernel
def tile_subscript_chain(a: wp.array2d(dtype=float), out: wp.array3d(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(a, shape=(6, 8))
    r = wp.tile_load(a[i + 3], shape=8)
    # index tiles: idx = [-2-i, 1-i, 4-i, 4-i] (for an axis of 8) and
    # jdx = [-i, -1-i, -2-i, -3-i] (for an axis of 4)
    w = wp.tile_arange(0, 4, dtype=int)
    idx = wp.tile_map(wp.min, w * 3 - wp.tile_full(shape=4, value=i + 2, dtype=int),
                      wp.tile_full(shape=4, value=4 - i, dtype=int))
    jdx = w * -1 - wp.tile_full(shape=4, value=i, dtype=int)
    # slice chains, negative steps
    wp.tile_store(out[i, 0, 0:4], r[::-1][::2])
    wp.tile_store(out[i, 0, 4:7], r[::-1][1:][::3])
    wp.tile_store(out[i, 1], t[1:4][0])
    wp.tile_store(out[i, 2], t[::-2][1][::-1])
    # a row, then a slice or a gather
    wp.tile_store(out[i, 3, 0:3], t[2][1:7:2])
    wp.tile_store(out[i, 3, 3:7], t[-1][idx])
    # a gather, then a slice; a slice, then a gather
    wp.tile_store(out[i, 4, 0:4], r[idx][::-1])
    wp.tile_store(out[i, 4, 4:8], r[::2][jdx])
    # gathers of rows, then a row
    wp.tile_store(out[i, 5:9], t[idx])
    wp.tile_store(out[i, 9, 0:4], t[idx, :][i + 1][2:6])
    wp.tile_store(out[i, 10], t[idx][1])
    # tile_view with slice offsets
    wp.tile_store(out[i, 11, 0:3], wp.tile_view(r, offset=(slice(-3, 8, 1),)))
    wp.tile_store(out[i, 11, 3:7], wp.tile_view(r, offset=(slice(6, -100, -2),)))
    wp.tile_store(out[i, 12, 0:3], wp.tile_view(t, offset=(i + 1, slice(1, 8, 3))))
    wp.tile_store(out[i, 12, 3:8], wp.tile_view(t, offset=(slice(0, -1, 1),))[-1][3:])
    # a builtin's result subscripted; an index that is a chain's element
    wp.tile_store(out[i, 13, 0:4], wp.tile_arange(0.0, 16.0, 1.0, dtype=float)[::-1][::4])
    wp.tile_store(out[i, 14], t[wp.tile_arange(0, 8, dtype=int)[::2][i + 1]])
    wp.tile_store(out[i, 15], t[wp.tile_arange(0, 3, dtype=int) * 2][1])
    out[i, 16, 0] = t[i][-2] + r[::-1][i]
