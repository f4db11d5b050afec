# Autodiff of Warp's quaternion helpers written in its math.py (their
# gradient is the derivative of their body, by Warp's rules):
# quat_to_rpy, quat_twist, quat_twist_angle, quat_twist_angle_signed.
# kern-test: bi_quat_more --adjoint --dim 8 a='arange(float32,8)' v='rand(vec3,8)' out='zeros(float32,8,4)' adj_a='zeros(float32,8)' adj_v='zeros(vec3,8)' adj_out='ones(float32,8,4)'
# why: kern expands each helper into math.py's scalar operations, whose adjoints are Warp's
# kern-check: adj_a rtol=5e-5 atol=2e-5
# kern-check: adj_v rtol=5e-5 atol=2e-5
import warp as wp


@wp.kernel
def bi_quat_more(a: wp.array(dtype=float), v: wp.array(dtype=wp.vec3), out: wp.array2d(dtype=float)):
    i = wp.tid()
    x = a[i] * 0.1 - 0.3
    p = v[i] - wp.vec3(0.5)
    q = wp.normalize(wp.quat(p[0], x, p[2], 1.0 + p[1]))
    e = wp.quat_to_rpy(q)
    out[i, 0] = e[0] + e[1] * 2.0 + e[2] * 3.0
    axis = wp.normalize(wp.vec3(x, 1.0, p[1]))
    t = wp.quat_twist(axis, q)
    out[i, 1] = t[0] - t[1] * 2.0 + t[2] * 0.5 + t[3] * 3.0
    out[i, 2] = wp.quat_twist_angle(axis, q) + wp.quat_twist_angle_signed(wp.vec3(0.0, 0.0, 1.0), q) * x
    out[i, 3] = wp.dot(wp.quat_to_rpy(wp.quat_twist(wp.vec3(1.0, 0.0, 0.0), q)), p)
