# Matrices elementwise and by scalar in float32 and float64: +, -, unary
# minus, * and / by a scalar on both sides, wp.cw_mul and wp.cw_div of
# matrices, min/max of matrices, matrix == matrix, and row assignment.
# kern-test: ty_mat_elementwise --dim 8 a='rand(mat33,8,seed=274)' d='rand(mat22d,8,seed=275)' om='zeros(mat33,8,4)' od='zeros(mat22d,8,3)' s='zeros(int32,8)'
# kern-check: om
# kern-check: od
# kern-check: s
import warp as wp


@wp.kernel
def ty_mat_elementwise(a: wp.array(dtype=wp.mat33), d: wp.array(dtype=wp.mat22d), om: wp.array2d(dtype=wp.mat33),
                       od: wp.array2d(dtype=wp.mat22d), s: wp.array(dtype=int)):
    i = wp.tid()
    m = a[i] - wp.mat33(0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5)
    n = wp.transpose(m) + wp.identity(n=3, dtype=float)
    om[i, 0] = m * 3.0 - 2.0 * n / 4.0
    om[i, 1] = wp.cw_mul(m, n) - m
    om[i, 2] = wp.cw_div(m, n + wp.mat33(2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0))
    p = -m
    p[1] = wp.vec3(float(i), 1.0, 2.0)
    om[i, 3] = p
    e = d[i]
    f = wp.mat22d(e[1, 1], e[0, 0], wp.float64(0.5), e[0, 1] + wp.float64(1.0))
    od[i, 0] = e * wp.float64(2.0) + f / wp.float64(8.0)
    od[i, 1] = wp.cw_mul(e, f) - wp.cw_div(e, f)
    od[i, 2] = -(e - f)
    s[i] = int(m == wp.transpose(wp.transpose(m))) + 2 * int(m == n)
