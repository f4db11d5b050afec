# Autodiff of the 4x4 wp.determinant and wp.inverse in float64 (Note [4x4
# inverse] in src/ir/expand.c), with a singular matrix (a zero last row)
# in thread 0.
# kern-test: bi_mat4_f64 --adjoint --dim 8 a='arange(float64,8)' m='rand(mat44d,8,seed=7)' out='zeros(float64,8,2)' adj_a='zeros(float64,8)' adj_m='zeros(mat44d,8)' adj_out='ones(float64,8,2)'
# why: the same as bi_mat4.py in float64, where every intermediate is a double
# kern-check: adj_a rtol=1e-9 atol=1e-9
# kern-check: adj_m rtol=1e-9 atol=1e-9
import warp as wp


@wp.kernel
def bi_mat4_f64(a: wp.array(dtype=wp.float64), m: wp.array(dtype=wp.mat44d), out: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    x = a[i] * wp.float64(0.1) + wp.float64(0.3)
    one = wp.float64(1.0)
    k = wp.float64(wp.min(i, 1))
    b = m[i] + wp.diag(wp.vec4d(x + one, wp.float64(1.5), x * x + one, wp.float64(2.0)))
    c = wp.cw_mul(b, wp.mat44d(one, one, one, one, one, one, one, one, one, one, one, one, k, k, k, k))
    out[i, 0] = wp.determinant(b) + wp.determinant(c * x)
    out[i, 1] = wp.trace(wp.inverse(b)) + wp.ddot(wp.inverse(c), b)
