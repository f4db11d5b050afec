# Autodiff of quaternion and transform builtins the expansion
# (src/ir/expand.c) writes out: quat_rpy, transform_to_matrix.
# (transform_set_translation_copy and transform_set_rotation_copy do not
# build in Warp 1.19's adjoint, "transform_t<Float>"; kern gradcheck
# checks them: gradcheck/ok64.py xcopy.)
# kern-test: xform_extra --adjoint --dim 8 a='arange(float32,8)' v='rand(vec3,8)' out='zeros(float32,8,3)' adj_a='zeros(float32,8)' adj_v='zeros(vec3,8)' adj_out='ones(float32,8,3)'
# why: Warp's adjoints of these builtins (quat.h, spatial.h, math.py) are the derivative of their arithmetic
# kern-check: adj_a rtol=5e-5 atol=1e-5
# kern-check: adj_v rtol=5e-5 atol=1e-5
import warp as wp


@wp.kernel
def xform_extra(a: wp.array(dtype=float), v: wp.array(dtype=wp.vec3), out: wp.array2d(dtype=float)):
    i = wp.tid()
    x = a[i] * 0.1 + 0.2
    p = v[i]
    q = wp.quat_rpy(x, p[0], p[1] * x)
    out[i, 0] = q[0] + q[1] * 2.0 + q[2] * 3.0 + q[3] * 4.0
    t = wp.transform(p, q)
    m = wp.transform_to_matrix(t)
    out[i, 1] = wp.ddot(m, wp.mat44(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0))
    out[i, 2] = wp.dot(wp.transform_point(t, wp.vec3(1.0, x, 2.0)), p) + m[1, 3] * x
