# 4x4 matrices in float32 and float64 (mat44, mat44d): products, transpose,
# determinant and inverse of well-conditioned matrices, trace, matrix times
# vec4 and vec4 times matrix, matrix_from_rows/cols, get_diag.
# kern-test: ty_mat44_more --dim 8 a='rand(mat44,8,seed=160)' d='rand(mat44d,8,seed=161)' om='zeros(mat44,8,3)' ov='zeros(vec4,8,3)' od='zeros(mat44d,8,3)' s='zeros(float64,8,3)'
# why: the 4x4 inverse and products of rounded inputs; each entry a sum of many terms
# kern-check: om rtol=2e-5 atol=2e-6
# kern-check: ov rtol=2e-5 atol=2e-6
# kern-check: od
# kern-check: s
import warp as wp


@wp.kernel
def ty_mat44_more(a: wp.array(dtype=wp.mat44), d: wp.array(dtype=wp.mat44d), om: wp.array2d(dtype=wp.mat44),
                  ov: wp.array2d(dtype=wp.vec4), od: wp.array2d(dtype=wp.mat44d), s: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    m = a[i] + wp.identity(n=4, dtype=float) * 2.0
    om[i, 0] = m * wp.transpose(m)
    om[i, 1] = wp.inverse(m)
    om[i, 2] = wp.matrix_from_rows(m[3], m[2], m[1], m[0]) - wp.matrix_from_cols(m[0], m[1], m[2], m[3])
    v = wp.vec4(1.0, -2.0, 0.5, float(i))
    ov[i, 0] = m * v
    ov[i, 1] = v * m
    ov[i, 2] = wp.get_diag(m)
    e = d[i] + wp.identity(n=4, dtype=wp.float64) * wp.float64(3.0)
    od[i, 0] = e * e
    od[i, 1] = wp.inverse(e)
    od[i, 2] = wp.transpose(e) * wp.float64(0.5) - e
    s[i, 0] = wp.determinant(e)
    s[i, 1] = wp.trace(e)
    s[i, 2] = wp.float64(wp.determinant(m))
