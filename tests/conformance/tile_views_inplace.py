# Tiles (issue #24): writing in place into tile views and into tiles with
# views, which in Warp share their tile's storage (Note [tile views in
# place] in src/lower/check_tile.c): tile_assign into a row view a[k] in a
# loop, into a 2-d slice view b[k] and into a tile_view column; a parent
# written (tile_assign at an offset, t[i] = x) after a view of it was
# taken, then the view read; += and -= on a view; a transposed view
# written by tile_lower_solve_inplace, tile_upper_solve_inplace and
# tile_cholesky_solve_inplace (lower and upper), read back through its
# parent; a reshaped view written; a view of a view written; overlapping
# views at runtime offsets, bound and written in a loop.
# kern-test: tile_views_inplace --dim 2 --tiled --block-dim 32 a='rand(float32,2,4,4,seed=41)' c='rand(float32,2,2,3,4,seed=42)' m='rand(float32,2,4,4,seed=43)' x='rand(float32,2,4,4,seed=44)' col=2 out='zeros(float32,2,13,4,4)'
# kern-check: out rtol=1e-4 atol=1e-5
import warp as wp


@wp.func
def halve_plus_one(v: float):
    return v * 0.5 + 1.0


@wp.kernel
def tile_views_inplace(a: wp.array3d(dtype=float), c: wp.array4d(dtype=float), m: wp.array3d(dtype=float),
                       x: wp.array3d(dtype=float), col: int, out: wp.array4d(dtype=float)):
    i = wp.tid()
    src = wp.tile_load(a[i], shape=(4, 4))
    # rows copied one by one through a row view of the destination
    dst = wp.tile_zeros(shape=(4, 4), dtype=float)
    for k in range(3):
        row_d = dst[k]
        row_s = src[3 - k]
        wp.tile_assign(row_d, row_s * 2.0)
    wp.tile_store(out[i, 0], dst)
    # 2-d slices of a 3-d tile through views
    cs = wp.tile_load(c[i], shape=(2, 3, 4))
    cd = wp.tile_ones(shape=(2, 3, 4), dtype=float)
    for k in range(2):
        sl = cd[k]
        wp.tile_assign(sl, wp.tile_view(cs, offset=(1 - k,)), offset=(0, 0))
    wp.tile_store(out[i, 1, 0:2, 0:3], wp.tile_squeeze(wp.tile_view(cd, offset=(0, 0, 1), shape=(2, 3, 1))))
    wp.tile_store(out[i, 2, 0:3], wp.tile_view(cd, offset=(1,)))
    # a column view read, mapped, written back into the parent; the view
    # read again afterwards sees the parent's new values
    p = wp.tile_load(a[i], shape=(4, 4))
    cv = wp.tile_view(p, offset=(0, col), shape=(4, 1))
    wp.tile_assign(p, wp.tile_map(halve_plus_one, cv), offset=(0, col))
    wp.tile_store(out[i, 3], p)
    wp.tile_store(out[i, 4, 0:4, 0:1], cv + cv)
    # an element of the parent set; its row view follows
    r1 = p[1]
    p[1, 3] = 9.0
    wp.tile_store(out[i, 4, 1], r1)
    # += and -= on views write through to the parent and its other views
    q = wp.tile_load(a[i], shape=(4, 4))
    qr = q[2]
    qc = wp.tile_view(q, offset=(0, 1), shape=(4, 2))
    qr += wp.tile_ones(shape=4, dtype=float)
    qc -= wp.tile_full(shape=(4, 2), value=0.25, dtype=float)
    wp.tile_store(out[i, 5], q)
    wp.tile_store(out[i, 6, 0], qr)
    wp.tile_store(out[i, 6, 1:3], wp.tile_transpose(qc))
    # a transposed view written in place by the solvers
    mt = wp.tile_load(m[i], shape=(4, 4))
    spd = wp.tile_diag_add(wp.tile_matmul(mt, wp.tile_transpose(mt)), wp.tile_full(shape=4, value=2.0, dtype=float))
    low = wp.tile_cholesky(spd)
    y = wp.tile_load(x[i], shape=(4, 4))
    yt = wp.tile_transpose(y)
    wp.tile_lower_solve_inplace(low, yt)
    wp.tile_store(out[i, 7], y)
    y2 = wp.tile_load(x[i], shape=(4, 4))
    y2t = wp.tile_transpose(y2)
    wp.tile_upper_solve_inplace(wp.tile_transpose(low), y2t)
    wp.tile_store(out[i, 8], wp.tile_matmul(y2t, y2t))
    wp.tile_store(out[i, 9], y2)
    fa = wp.tile_load(m[i], shape=(4, 4))
    fa2 = wp.tile_diag_add(wp.tile_matmul(fa, wp.tile_transpose(fa)), wp.tile_full(shape=4, value=2.0, dtype=float))
    wp.tile_cholesky_inplace(fa2, fill_mode="upper")
    y3 = wp.tile_load(x[i], shape=(4, 4))
    y3t = wp.tile_transpose(y3)
    wp.tile_cholesky_solve_inplace(fa2, y3t, fill_mode="upper")
    y3 = wp.tile_transpose(y3t)
    wp.tile_store(out[i, 10], y3)
    # a reshaped view and a view of a named view written
    h = wp.tile_load(a[i], shape=(4, 4))
    hf = wp.tile_reshape(h, shape=(2, 8))
    hv = hf[1]
    wp.tile_assign(hv, wp.tile_full(shape=4, value=-1.0, dtype=float), offset=(2,))
    hf[0, 0] = 5.0
    wp.tile_store(out[i, 11], h)
    # views at a runtime offset that overlap from one iteration to the next
    g = wp.tile_load(a[i], shape=(4, 4))
    for k in range(col + 1):
        w = wp.tile_view(g, offset=(k, 0), shape=(2, 4))
        w += wp.tile_full(shape=(2, 4), value=float(k + 1), dtype=float)
        gt = wp.tile_transpose(g)
        gt[k, 3] = gt[k, 3] * 2.0
    wp.tile_store(out[i, 12], g)
