# Autodiff of the 4x4 wp.determinant and wp.inverse (Note [4x4 inverse] in
# src/ir/expand.c: Warp's minors and cofactors, partly in double), with a
# singular matrix (a zero last row) in thread 0, whose inverse is zero.
# kern-test: bi_mat4 --adjoint --dim 8 a='arange(float32,8)' m='rand(mat44,8,seed=7)' out='zeros(float32,8,3)' adj_a='zeros(float32,8)' adj_m='zeros(mat44,8)' adj_out='ones(float32,8,3)'
# why: Warp's adjoints are the cofactors (determinant) and -inv^T g inv^T (inverse, zero where the inverse is), the derivative
# kern-check: adj_a rtol=1e-4 atol=1e-4
# kern-check: adj_m rtol=1e-4 atol=1e-4
import warp as wp


@wp.kernel
def bi_mat4(a: wp.array(dtype=float), m: wp.array(dtype=wp.mat44), out: wp.array2d(dtype=float)):
    i = wp.tid()
    x = a[i] * 0.1 + 0.3
    k = float(wp.min(i, 1))
    b = m[i] + wp.diag(wp.vec4(x + 1.0, 1.5, x * x + 1.0, 2.0))
    w = wp.mat44(1.0, 2.0, -1.0, 0.5, 0.25, 1.0, 3.0, -2.0, 1.5, -0.5, 1.0, 2.0, -1.0, 0.75, 0.5, 1.0)
    c = wp.cw_mul(b, wp.mat44(1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, k, k, k, k))
    out[i, 0] = wp.determinant(b) + wp.determinant(b * x) * 0.5
    out[i, 1] = wp.ddot(wp.inverse(b), w)
    out[i, 2] = wp.determinant(c) + wp.ddot(wp.inverse(c), w) + wp.trace(wp.inverse(c * x))
