# 2x2 matrices in float32 and float64 (mat22, mat22d): products with
# matrices and row/column vectors, transpose, determinant, inverse, trace,
# outer, diag, identity, componentwise ops and element writes.
# kern-test: ty_mat22_more --dim 10 a='rand(mat22,10,seed=158)' d='rand(mat22d,10,seed=159)' om='zeros(mat22,10,4)' od='zeros(mat22d,10,4)' s='zeros(float64,10,4)'
# kern-check: om
# kern-check: od
# kern-check: s
import warp as wp


@wp.kernel
def ty_mat22_more(a: wp.array(dtype=wp.mat22), d: wp.array(dtype=wp.mat22d), om: wp.array2d(dtype=wp.mat22),
                  od: wp.array2d(dtype=wp.mat22d), s: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    m = a[i] - wp.mat22(0.5, 0.5, 0.5, 0.5)
    n = wp.transpose(m) + wp.identity(n=2, dtype=float)
    om[i, 0] = m * n - n * m
    om[i, 1] = wp.inverse(n) * 2.0
    om[i, 2] = wp.outer(m[0], n[1]) + wp.diag(wp.vec2(m[1, 1], float(i)))
    p = m
    p[0, 1] = wp.determinant(n)
    p[1] = wp.vec2(3.0, -1.0) * m
    om[i, 3] = p
    e = d[i] * wp.float64(2.0)
    f = wp.mat22d(e[1, 1], e[0, 1], e[1, 0], wp.float64(1.0))
    od[i, 0] = e * f
    od[i, 1] = wp.inverse(f)
    od[i, 2] = wp.transpose(e) - f / wp.float64(4.0)
    od[i, 3] = wp.outer(e[0], f[1]) + wp.identity(n=2, dtype=wp.float64)
    s[i, 0] = wp.determinant(e)
    s[i, 1] = wp.trace(e * f)
    v = e * wp.vec2d(wp.float64(1.0), wp.float64(-2.0))
    s[i, 2] = v[0] + v[1] * wp.float64(10.0)
    s[i, 3] = wp.ddot(e, f)
