# Autodiff of the 2x2 and 3x3 wp.inverse at singular matrices (every
# thread's 3x3 and 2x2 are singular; the 3x3 of the even threads is not):
# Warp's inverse is zero there and its adjoint adds nothing, not NaN.
# kern-test: bi_mat4_singular --adjoint --dim 8 a='arange(float32,8)' out='zeros(float32,8)' adj_a='zeros(float32,8)' adj_out='ones(float32,8)'
# why: the expansion's reciprocal is of 1 where the determinant is zero, so the products it does not select stay finite
# kern-check: adj_a rtol=5e-5 atol=2e-5
import warp as wp


@wp.kernel
def bi_mat4_singular(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    x = a[i] * 0.5 + 0.25
    k = float(i % 2)
    m = wp.mat33(x, 2.0 * x, 0.0, 1.0, 2.0 + (1.0 - k), 0.0, 0.0, 0.0, x)
    out[i] = wp.inverse(m)[0, 0] + wp.inverse(wp.mat22(x, 2.0 * x, 1.0, 2.0))[0, 1] * x
