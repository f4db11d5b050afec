# Tiles (issue #24): wp.tile_cholesky (lower and upper), tile_cholesky_inplace,
# tile_cholesky_solve (+ _inplace, 1-d and 2-d right-hand sides),
# tile_lower_solve, tile_upper_solve (+ _inplace) and tile_diag_add, on a
# symmetric positive-definite A = M M^T + diag(d) built in the kernel, in
# float32 and float64.  Warp's CPU algorithms (tile_cholesky.h,
# tile_solve.h) are plain loops, so the results agree to rounding.
# kern-test: tile_linalg --dim 2 --tiled --block-dim 32 m='rand(float32,2,5,5,seed=31)' m64='rand(float64,5,5,seed=32)' y='rand(float32,2,5,seed=33)' out='zeros(float32,2,8,5,5)' o64='zeros(float64,2,5,5)' vx='zeros(float32,2,4,5)'
# kern-check: out
# kern-check: o64
# kern-check: vx
import warp as wp


@wp.kernel
def tile_linalg(m: wp.array3d(dtype=float), m64: wp.array2d(dtype=wp.float64), y: wp.array2d(dtype=float),
                out: wp.array4d(dtype=float), o64: wp.array3d(dtype=wp.float64), vx: wp.array3d(dtype=float)):
    i = wp.tid()
    mt = wp.tile_load(m[i], shape=(5, 5))
    d = wp.tile_full(shape=5, value=2.0, dtype=float)
    a = wp.tile_diag_add(wp.tile_matmul(mt, wp.tile_transpose(mt)), d)
    wp.tile_store(out[i, 0], a)
    l = wp.tile_cholesky(a)
    wp.tile_store(out[i, 1], l)
    u = wp.tile_cholesky(a, fill_mode="upper")
    wp.tile_store(out[i, 2], u)
    c = wp.tile_matmul(mt, wp.tile_transpose(mt))
    c2 = wp.tile_diag_add(c, d)
    wp.tile_cholesky_inplace(c2)
    wp.tile_store(out[i, 3], c2)
    rhs = wp.tile_load(y[i], shape=5)
    x = wp.tile_cholesky_solve(l, rhs)
    wp.tile_store(vx[i, 0], x)
    x2 = wp.tile_cholesky_solve(u, rhs, fill_mode="upper")
    wp.tile_store(vx[i, 1], x2)
    z = wp.tile_lower_solve(l, rhs)
    wp.tile_store(vx[i, 2], wp.tile_upper_solve(wp.tile_transpose(l), z))
    r2 = wp.tile_load(m[i], shape=(5, 5))
    wp.tile_cholesky_solve_inplace(l, r2)
    wp.tile_store(out[i, 4], r2)
    r3 = wp.tile_load(m[i], shape=(5, 5))
    wp.tile_lower_solve_inplace(l, r3)
    wp.tile_store(out[i, 5], r3)
    r4 = wp.tile_load(m[i], shape=(5, 5))
    wp.tile_upper_solve_inplace(u, r4)
    wp.tile_store(out[i, 6], r4)
    wp.tile_store(out[i, 7], wp.tile_upper_solve(u, wp.tile_load(m[i], shape=(5, 5))))
    w = wp.tile_load(y[i], shape=5)
    wp.tile_cholesky_solve_inplace(u, w, fill_mode="upper")
    wp.tile_store(vx[i, 3], w)
    m6 = wp.tile_load(m64, shape=(5, 5))
    a6 = wp.tile_diag_add(wp.tile_matmul(m6, wp.tile_transpose(m6)), wp.tile_ones(shape=5, dtype=wp.float64))
    wp.tile_store(o64[i], wp.tile_cholesky_solve(wp.tile_cholesky(a6), m6))
