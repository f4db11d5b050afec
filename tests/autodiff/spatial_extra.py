# Autodiff of vector, quaternion and spatial builtins the expansion
# (src/ir/expand.c) writes out since issue #26's builtin rules: skew,
# ddot, quat_from_axis_angle, transform_get_rotation, spatial_top,
# spatial_bottom, spatial_cross, spatial_cross_dual, spatial_adjoint.
# kern-test: spatial_extra --adjoint --dim 8 a='arange(float32,8)' v='rand(vec3,8)' out='zeros(float32,8,7)' adj_a='zeros(float32,8)' adj_v='zeros(vec3,8)' adj_out='ones(float32,8,7)'
# why: Warp's hand-written adjoints of these builtins equal the derivative of their expansion
# kern-check: adj_a rtol=5e-5 atol=1e-5
# kern-check: adj_v rtol=5e-5 atol=1e-5
import warp as wp


@wp.kernel
def spatial_extra(a: wp.array(dtype=float), v: wp.array(dtype=wp.vec3), out: wp.array2d(dtype=float)):
    i = wp.tid()
    x = a[i] * 0.1 + 0.2
    p = v[i]
    m = wp.skew(p) * x + wp.mat33(x, 0.1, 0.2, 0.3, x + 1.0, 0.4, 0.5, 0.6, x * 2.0 + 1.0)
    out[i, 0] = wp.ddot(m, wp.skew(p + wp.vec3(x, 0.5, 1.0))) + wp.ddot(m, m)
    q = wp.quat_from_axis_angle(p, x * 3.0)
    out[i, 1] = q[0] * 2.0 + q[1] * 3.0 + q[2] - q[3] * q[3]
    t = wp.transform(p * x, q)
    r = wp.transform_get_rotation(t)
    out[i, 2] = wp.dot(wp.quat_rotate(r, wp.vec3(1.0, x, 2.0)), p)
    s = wp.spatial_vector(x, p[0], p[1], p[2] * x, 0.5, x * x)
    u = wp.spatial_vector(p[1], 1.0, x, 0.3, p[0] * p[2], 2.0)
    out[i, 3] = wp.dot(wp.spatial_top(s), p) + wp.length(wp.spatial_bottom(s * x))
    c = wp.spatial_cross(s, u)
    out[i, 4] = c[0] + c[1] * 2.0 + c[2] * 3.0 + c[3] * 4.0 + c[4] * 5.0 + c[5] * 6.0
    d = wp.spatial_cross_dual(u, s)
    out[i, 5] = d[0] * 6.0 - d[1] + d[2] * 0.5 + d[3] * 2.0 + d[4] + d[5] * 3.0
    sa = wp.spatial_adjoint(m, wp.skew(p))
    out[i, 6] = wp.dot(sa * s, u) + sa[4, 1] * x
