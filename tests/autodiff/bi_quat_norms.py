# Autodiff of norm_l1, norm_huber and norm_pseudo_huber of a quaternion
# (math.py's bodies, as on vectors), both sides of Huber's threshold.
# kern-test: bi_quat_norms --adjoint --dim 8 a='arange(float32,8)' v='rand(vec4,8,seed=5)' out='zeros(float32,8,3)' adj_a='zeros(float32,8)' adj_v='zeros(vec4,8)' adj_out='ones(float32,8,3)'
# why: Warp differentiates math.py's norm functions on a quaternion as on a vec4
# kern-check: adj_a rtol=5e-5 atol=2e-5
# kern-check: adj_v rtol=5e-5 atol=2e-5
import warp as wp


@wp.kernel
def bi_quat_norms(a: wp.array(dtype=float), v: wp.array(dtype=wp.vec4), out: wp.array2d(dtype=float)):
    i = wp.tid()
    x = a[i] * 0.2 - 0.7
    p = v[i] - wp.vec4(0.5)
    q = wp.quat(p[0] + x, p[1], p[2] * x, p[3] - 0.25)
    out[i, 0] = wp.norm_l1(q)
    out[i, 1] = wp.norm_huber(q * 2.0, 0.6)
    out[i, 2] = wp.norm_pseudo_huber(q, x + 1.0)
