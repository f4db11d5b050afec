# Tiles (issue #24): wp.tile_transpose, tile_broadcast, tile_reshape (with
# -1), tile_squeeze (all and one axis), tile_view (integer offsets with and
# without shape, a runtime offset), tile_astype (float to int truncates
# toward zero, int to float), tile_assign (at an offset, converting, and a
# tile onto itself) and tile_empty (every element assigned before use).
# kern-test: tile_views --dim 2 --tiled --block-dim 32 a='rand(float32,2,3,4,seed=11)' r='rand(float32,4,seed=12)' k='rand(int32,12,seed=13)' out='zeros(float32,2,8,12)' ki='zeros(int32,2,2,12)'
# kern-check: out rtol=1e-6
# kern-check: ki
import warp as wp


@wp.kernel
def tile_views(a: wp.array3d(dtype=float), r: wp.array(dtype=float), k: wp.array(dtype=int),
               out: wp.array3d(dtype=float), ki: wp.array3d(dtype=int)):
    i = wp.tid()
    t = wp.tile_load(a[i], shape=(3, 4))
    wp.tile_store(out[i], wp.tile_transpose(t))
    row = wp.tile_load(r, shape=4)
    b = wp.tile_broadcast(row, shape=(2, 4))
    wp.tile_store(out[i, 4:6], b)
    bc = wp.tile_broadcast(wp.tile_load(a[i], shape=(3, 1)), shape=(2, 3, 4))
    wp.tile_store(out[i, 4:7, 4:8], wp.tile_view(bc, offset=(1,)) * 2.0)
    wp.tile_store(out[i, 6], wp.tile_reshape(t, shape=(-1,)))
    sq = wp.tile_squeeze(wp.tile_reshape(t, shape=(1, 12, 1)))
    wp.tile_store(out[i, 7, 0:4], wp.tile_view(sq, offset=(2,), shape=(4,)) * 0.5
                  + wp.tile_squeeze(wp.tile_view(t, offset=(1, 0), shape=(1, 4)), axis=(0,)))
    v = wp.tile_view(t, offset=(i + 1,))
    wp.tile_store(out[i, 7, 4:8], v)
    f = wp.tile_load(k, shape=12)
    fl = wp.tile_astype(wp.tile_reshape(t, shape=(12,)) * 10.0 - wp.tile_full(shape=12, value=5.0, dtype=float), int)
    e = wp.tile_empty(shape=12, dtype=int)
    wp.tile_assign(e, fl)
    wp.tile_assign(e, wp.tile_astype(wp.tile_view(t, offset=(2,)), int), offset=(8,))
    wp.tile_assign(e, e)
    wp.tile_store(ki[i, 0], e)
    g = wp.tile_zeros(shape=12, dtype=int)
    wp.tile_assign(g, wp.tile_load(r, shape=4) * 7.0, offset=(i * 3,))
    wp.tile_store(ki[i, 1], g + f)
    wp.tile_store(out[i, 7, 8:12], wp.tile_astype(wp.tile_view(f, offset=(4,), shape=(4,)), float))
