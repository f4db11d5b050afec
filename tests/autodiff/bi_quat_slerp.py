# Autodiff of wp.quat_slerp (float32): q0 turned by t times the angle of
# q0^-1 q1 about its axis, through the expansion; every argument computed.
# kern-test: bi_quat_slerp --adjoint --dim 8 a='arange(float32,8)' v='rand(vec4,8,seed=3)' w='rand(vec4,8,seed=4)' out='zeros(float32,8,2)' adj_a='zeros(float32,8)' adj_v='zeros(vec4,8)' adj_w='zeros(vec4,8)' adj_out='ones(float32,8,2)'
# why: Warp's adj_quat_slerp is the derivative (checked against central differences in float64 with Warp 1.19) where q0^-1 q1 has a nonzero vector part
# kern-check: adj_a rtol=1e-4 atol=5e-5
# kern-check: adj_v rtol=1e-4 atol=5e-5
# kern-check: adj_w rtol=1e-4 atol=5e-5
import warp as wp


@wp.kernel
def bi_quat_slerp(a: wp.array(dtype=float), v: wp.array(dtype=wp.vec4), w: wp.array(dtype=wp.vec4), out: wp.array2d(dtype=float)):
    i = wp.tid()
    t = a[i] * 0.1 + 0.15
    p = v[i] - wp.vec4(0.5)
    s = w[i] - wp.vec4(0.5)
    q0 = wp.normalize(wp.quat(p[0], p[1], p[2], p[3] + 1.0))
    q1 = wp.quat(s[0], s[1] * 2.0, s[2], s[3] - 1.0)
    r = wp.quat_slerp(q0, q1, t)
    out[i, 0] = r[0] + r[1] * 2.0 - r[2] * 0.5 + r[3] * 1.5
    u = wp.quat_slerp(q1, wp.quat(p[0], p[1], p[2], p[3]), t * t)
    out[i, 1] = u[0] * 0.5 - u[1] + u[2] * 2.0 + u[3]
