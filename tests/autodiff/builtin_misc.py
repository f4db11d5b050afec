# Autodiff of builtins that had adjoints through the expansion but no Warp
# golden: lerp, smoothstep, frac, degrees, radians, outer, trace, get_diag,
# diag, inverse, determinant (2x2), length_sq, cw_div, min/max of a vector,
# quat_to_matrix, transform_multiply, transform_inverse,
# transform_get_translation, spatial_dot.
# kern-test: builtin_misc --adjoint --dim 8 a='arange(float32,8)' v='rand(vec3,8)' out='zeros(float32,8,5)' adj_a='zeros(float32,8)' adj_v='zeros(vec3,8)' adj_out='ones(float32,8,5)'
# why: each builtin's adjoint equals Warp 1.19's; frac's is zero in Warp (its adj_frac adds nothing), not 1
# kern-check: adj_a rtol=5e-5 atol=2e-5
# kern-check: adj_v rtol=5e-5 atol=2e-5
import warp as wp


@wp.kernel
def builtin_misc(a: wp.array(dtype=float), v: wp.array(dtype=wp.vec3), out: wp.array2d(dtype=float)):
    i = wp.tid()
    x = a[i] * 0.1 + 0.2
    p = v[i] + wp.vec3(0.5)
    out[i, 0] = wp.lerp(x, p[0], p[1]) + wp.smoothstep(0.1, 1.7, p[2] + x) + wp.frac(x * 7.3) + wp.degrees(x) * 0.01 + wp.radians(p[0])
    m = wp.outer(p, wp.vec3(x, 1.0, 2.0)) + wp.diag(p)
    mi = wp.inverse(m)
    out[i, 1] = wp.trace(mi) + wp.dot(wp.get_diag(m), p) + wp.determinant(wp.mat22(p[0], x, p[1], p[2]))
    out[i, 2] = wp.length_sq(wp.cw_div(p, wp.vec3(x + 1.0, 2.0, p[0]))) + wp.min(p) * 2.0 + wp.max(p * x)
    q = wp.normalize(wp.quat(p[0], x, p[2], 1.0))
    r = wp.quat_to_matrix(q)
    t = wp.transform(p, q)
    u = wp.transform_multiply(wp.transform_inverse(t), wp.transform(wp.vec3(x, 0.5, 1.0), wp.quat_identity()))
    out[i, 3] = r[0, 1] + r[2, 0] * 2.0 + wp.dot(wp.transform_get_translation(u), p) + u[4]
    s = wp.spatial_vector(x, p[0], p[1], p[2] * x, 0.5, x * x)
    out[i, 4] = wp.spatial_dot(s, wp.spatial_vector(p[1], 1.0, x, 0.3, p[0], 2.0))
