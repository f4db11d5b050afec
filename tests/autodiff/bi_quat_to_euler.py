# Autodiff of quat_to_euler with constant axes (Tait-Bryan and proper
# sequences): math.py's body, the case of the middle angle taken (near 0
# and near pi in out[:, 3], where acos's argument is 1 and -1).
# kern-test: bi_quat_to_euler --adjoint --dim 8 a='arange(float32,8)' v='rand(vec3,8)' out='zeros(float32,8,4)' adj_a='zeros(float32,8)' adj_v='zeros(vec3,8)' adj_out='ones(float32,8,4)'
# why: Warp differentiates math.py's quat_to_euler: acos and two atan2 of sums of the components
# kern-check: adj_a rtol=5e-5 atol=2e-5
# kern-check: adj_v rtol=5e-5 atol=2e-5
import warp as wp


@wp.kernel
def bi_quat_to_euler(a: wp.array(dtype=float), v: wp.array(dtype=wp.vec3), out: wp.array2d(dtype=float)):
    i = wp.tid()
    x = a[i] * 0.2 - 0.7
    p = v[i] - wp.vec3(0.5)
    q = wp.normalize(wp.quat(p[0] + x, p[1], p[2] * x, 1.0 + p[0] * 0.5))
    e = wp.quat_to_euler(q, 0, 1, 2)
    out[i, 0] = e[0] + e[1] * 2.0 - e[2] * 0.5
    f = wp.quat_to_euler(q, 2, 0, 2)
    out[i, 1] = f[0] * 1.5 + f[1] - f[2] * 2.0
    g = wp.quat_to_euler(wp.quat(p[1], x, p[0], p[2] + 2.0), 1, 2, 0)
    out[i, 2] = g[0] - g[1] + g[2] * 0.5
    y = x * 0.5
    h = wp.quat_to_euler(wp.quat(0.0, 0.0, wp.sin(y), wp.cos(y)), 2, 0, 2)
    n = wp.quat_to_euler(wp.quat(wp.cos(y), 0.0, wp.sin(y), 0.0), 2, 0, 2)
    out[i, 3] = h[0] + h[1] * 2.0 - h[2] * 0.5 + n[0] * 0.25 + n[1] - n[2] * 1.5
