# Autodiff of quat_from_matrix (3x3 and 4x4, each of its four branches:
# a positive trace, then the largest diagonal entry 0, 1 or 2),
# transform_from_matrix and transform_compose.
# kern-test: bi_xform_more --adjoint --dim 8 a='arange(float32,8)' v='rand(vec3,8)' out='zeros(float32,8,4)' adj_a='zeros(float32,8)' adj_v='zeros(vec3,8)' adj_out='ones(float32,8,4)'
# why: quat_from_matrix's adjoint (Warp's adj_quat_from_matrix) is the derivative of the branch taken; transform_compose and transform_from_matrix are math.py bodies over it and quat_to_matrix
# kern-check: adj_a rtol=5e-5 atol=2e-5
# kern-check: adj_v rtol=5e-5 atol=2e-5
import warp as wp


@wp.kernel
def bi_xform_more(a: wp.array(dtype=float), v: wp.array(dtype=wp.vec3), out: wp.array2d(dtype=float)):
    i = wp.tid()
    x = a[i] * 0.01
    p = v[i] - wp.vec3(0.5)
    k = i % 4
    b = wp.quat(wp.where(k == 1, 1.0, 0.0), wp.where(k == 2, 1.0, 0.0), wp.where(k == 3, 1.0, 0.0), wp.where(k == 0, 1.0, 0.1))
    q = wp.normalize(b + wp.quat(p[0], p[1], p[2], x) * 0.1)
    m = wp.quat_to_matrix(q) + wp.outer(p, wp.vec3(x, 0.3, -0.2)) * 0.05
    r = wp.quat_from_matrix(m)
    out[i, 0] = r[0] + r[1] * 2.0 - r[2] * 0.5 + r[3] * 3.0
    m4 = wp.transform_compose(p, q, wp.vec3(1.0 + x, 0.9, 1.1 + p[0] * 0.1))
    out[i, 1] = m4[0, 1] + m4[1, 2] * 2.0 + m4[2, 0] * 3.0 + m4[0, 3] * 0.5 + m4[2, 2]
    m4 = m4 + wp.mat44(m[0, 0] * 0.01, x, 0.0, 0.0, 0.0, 0.0, p[1] * 0.02, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    t = wp.transform_from_matrix(m4)
    out[i, 2] = t[0] + t[1] * 2.0 + t[2] * 3.0 + t[3] - t[4] * 2.0 + t[5] * 0.5 + t[6]
    s = wp.quat_from_matrix(m4)
    out[i, 3] = wp.dot(s, q)
