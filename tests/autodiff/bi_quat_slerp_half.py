# Autodiff of wp.quat_slerp of float16 quaternions: q0 turned by t times
# the angle of q0^-1 q1 about its axis, through the expansion, each
# float16 operation rounded; every argument computed.
# kern-test: bi_quat_slerp_half --adjoint --dim 8 a='arange(float16,8)' v='rand(vec4h,8,seed=3)' w='rand(vec4h,8,seed=4)' out='zeros(float16,8,2)' adj_a='zeros(float16,8)' adj_v='zeros(vec4h,8)' adj_w='zeros(vec4h,8)' adj_out='ones(float16,8,2)'
# why: Warp's adj_quat_slerp and kern's expansion both compute the derivative in float16, each rounding its own operations: against the float64 derivative (scale 5) Warp's is off by up to 1.1e-2, kern's by 4.3e-3
# kern-check: adj_a rtol=1e-2 atol=1e-2
# kern-check: adj_v rtol=1e-2 atol=1e-2
# kern-check: adj_w rtol=1e-2 atol=1e-2
import warp as wp


@wp.kernel
def bi_quat_slerp_half(a: wp.array(dtype=wp.float16), v: wp.array(dtype=wp.vec4h), w: wp.array(dtype=wp.vec4h), out: wp.array2d(dtype=wp.float16)):
    i = wp.tid()
    h = wp.float16(0.5)
    o = wp.float16(1.0)
    t = a[i] * wp.float16(0.1) + wp.float16(0.15)
    p = v[i] - wp.vec4h(h, h, h, h)
    s = w[i] - wp.vec4h(h, h, h, h)
    q0 = wp.normalize(wp.quath(p[0], p[1], p[2], p[3] + o))
    q1 = wp.quath(s[0], s[1] * wp.float16(2.0), s[2], s[3] - o)
    r = wp.quat_slerp(q0, q1, t)
    out[i, 0] = r[0] + r[1] * wp.float16(2.0) - r[2] * h + r[3] * wp.float16(1.5)
    u = wp.quat_slerp(q1, wp.quath(p[0], p[1], p[2], p[3]), t * t)
    out[i, 1] = u[0] * h - u[1] + u[2] * wp.float16(2.0) + u[3]
