# Autodiff of wp.quat_slerp in float64 (see bi_quat_slerp.py).
# kern-test: bi_quat_slerp_f64 --adjoint --dim 8 a='arange(float64,8)' v='rand(vec4d,8,seed=3)' w='rand(vec4d,8,seed=4)' out='zeros(float64,8)' adj_a='zeros(float64,8)' adj_v='zeros(vec4d,8)' adj_w='zeros(vec4d,8)' adj_out='ones(float64,8)'
# why: the same in float64
# kern-check: adj_a rtol=1e-9 atol=1e-9
# kern-check: adj_v rtol=1e-9 atol=1e-9
# kern-check: adj_w rtol=1e-9 atol=1e-9
import warp as wp


@wp.kernel
def bi_quat_slerp_f64(a: wp.array(dtype=wp.float64), v: wp.array(dtype=wp.vec4d), w: wp.array(dtype=wp.vec4d), out: wp.array(dtype=wp.float64)):
    i = wp.tid()
    h = wp.float64(0.5)
    t = a[i] * wp.float64(0.1) + wp.float64(0.15)
    p = v[i] - wp.vec4d(h, h, h, h)
    s = w[i] - wp.vec4d(h, h, h, h)
    q0 = wp.quatd(p[0], p[1], p[2], p[3] + wp.float64(1.0))
    q1 = wp.quatd(s[0], s[1], s[2], s[3] - wp.float64(1.0))
    r = wp.quat_slerp(q0, q1, t)
    out[i] = r[0] + r[1] * wp.float64(2.0) - r[2] * h + r[3] * wp.float64(1.5)
