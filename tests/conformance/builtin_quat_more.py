# Vector norms and quaternion helpers: wp.norm_l1, norm_l2, norm_huber and
# norm_pseudo_huber (default and given delta, both branches of Huber),
# smooth_normalize, skew, ddot (Warp accumulates with fused multiply-adds),
# quat_from_matrix (3x3 and 4x4, every branch: trace >= 0 and each largest
# diagonal entry), quat_rpy and quat_to_rpy, quat_slerp, quat_to_axis_angle
# (unpacked; w < 0 flips the axis), quat_twist, quat_twist_angle(_signed),
# quat_from_euler and quat_to_euler (Tait-Bryan and proper sequences), in
# float32 and, where Warp has them, float64.
# kern-test: builtin_quat_more --dim 8 a='rand(vec4,8,seed=31)' d='rand(float64,8,4,seed=32)' of='zeros(float32,8,12)' ov='zeros(vec3,8,8)' oq='zeros(vec4,8,9)' om='zeros(mat33,8,2)' od='zeros(float64,8,10)'
# why: float64 quat_from_matrix and slerp go through sqrt/atan2/sin/cos of the platform
# kern-check: od rtol=1e-11 atol=1e-13
# why: the inverse trigonometric functions of OpenCL are one ulp off glibc
# kern-check: of rtol=1e-5 atol=2e-6
# kern-check: ov rtol=1e-5 atol=2e-6
# kern-check: oq rtol=1e-5 atol=2e-6
# kern-check: om
import warp as wp


@wp.func
def as_vec(q: wp.quat) -> wp.vec4:
    return wp.vec4(q[0], q[1], q[2], q[3])


@wp.kernel
def builtin_quat_more(a: wp.array(dtype=wp.vec4), d: wp.array2d(dtype=wp.float64), of: wp.array2d(dtype=float),
                      ov: wp.array2d(dtype=wp.vec3), oq: wp.array2d(dtype=wp.vec4), om: wp.array2d(dtype=wp.mat33),
                      od: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    v = (a[i] - wp.vec4(0.5, 0.5, 0.5, 0.5)) * (float(i) + 0.5)
    v3 = wp.vec3(v[0], v[1], v[2])
    of[i, 0] = wp.norm_l1(v)
    of[i, 1] = wp.norm_l2(v3)
    of[i, 2] = wp.norm_huber(v3)
    of[i, 3] = wp.norm_huber(v3, delta=0.25)
    of[i, 4] = wp.norm_pseudo_huber(v, 2.0)
    of[i, 5] = wp.smooth_normalize(v3)[1] + wp.smooth_normalize(v3, 0.5)[2]
    m = wp.mat33(v[0], v[1], v[2], v[3], 1.0, v[0], 0.5, v[2], -v[1])
    of[i, 6] = wp.ddot(m, wp.transpose(m) + m)
    q = wp.normalize(wp.quat(v[0], v[1], v[2], v[3]))
    axis = wp.vec3(0.0)
    angle = float(0.0)
    axis, angle = wp.quat_to_axis_angle(q)
    ov[i, 0] = axis
    of[i, 7] = angle
    ov[i, 1] = wp.skew(v3) * wp.vec3(1.0, 2.0, 3.0)
    ov[i, 2] = wp.quat_to_rpy(q)
    ov[i, 3] = wp.quat_to_euler(q, 0, 1, 2)
    ov[i, 4] = wp.quat_to_euler(q, 2, 0, 1)
    ov[i, 5] = wp.quat_to_euler(q, 2, 1, 2)
    ov[i, 6] = wp.quat_to_euler(q, 0, 1, 0)
    ov[i, 7] = wp.quat_to_euler(wp.quat_rpy(v[0], 1.5707963 + v[1] * 0.0, v[2]), 0, 1, 2)
    axis_n = wp.normalize(wp.vec3(1.0, 2.0, 2.0))
    of[i, 8] = wp.quat_twist_angle(axis_n, q)
    of[i, 9] = wp.quat_twist_angle_signed(axis_n, q)
    of[i, 10] = wp.norm_l1(q)
    of[i, 11] = wp.norm_l2(v)
    oq[i, 0] = as_vec(wp.quat_from_matrix(wp.quat_to_matrix(q)))
    oq[i, 1] = as_vec(wp.quat_from_matrix(m))
    oq[i, 2] = as_vec(wp.quat_from_matrix(wp.mat33(-1.0, 0.0, 0.0, 0.0, 0.5, 0.2, 0.0, 0.1, -2.0)))
    oq[i, 3] = as_vec(wp.quat_from_matrix(wp.mat33(-2.0, 0.0, 0.3, 0.0, 1.5, 0.2, 0.0, 0.1, -0.5)))
    oq[i, 4] = as_vec(wp.quat_from_matrix(wp.mat44(-1.0, 0.2, 0.0, 9.0, 0.0, -1.5, 0.2, 9.0, 0.4, 0.1, 2.0, 9.0, 0.0, 0.0, 0.0, 1.0)))
    oq[i, 5] = as_vec(wp.quat_rpy(v[0], v[1], v[2]))
    oq[i, 6] = as_vec(wp.quat_slerp(q, wp.quat_rpy(0.1, 0.2, 0.3), 0.3))
    oq[i, 7] = as_vec(wp.quat_twist(axis_n, q))
    oq[i, 8] = as_vec(wp.quat_from_euler(v3, 2, 0, 1)) + as_vec(wp.quat_from_euler(v3, 0, 1, 0))
    om[i, 0] = wp.skew(v3)
    om[i, 1] = wp.quat_to_matrix(wp.quat_from_euler(v3, 0, 1, 2))
    x = wp.float64(1.0)
    dv = wp.vec3d(d[i, 0], d[i, 1], d[i, 2])
    qd = wp.quat_rpy(d[i, 0], d[i, 1], d[i, 2])
    od[i, 0] = qd[0] + qd[3]
    md = wp.quat_to_matrix(qd)
    qd2 = wp.quat_from_matrix(md)
    od[i, 1] = qd2[1] + qd2[2]
    od[i, 2] = wp.ddot(md, wp.skew(dv))
    od[i, 3] = wp.norm_l2(dv)
    s = wp.quat_slerp(qd, wp.quatd(x * wp.float64(0.0), x, x * wp.float64(0.0), x * wp.float64(0.0)), d[i, 3])
    od[i, 4] = s[0]
    od[i, 5] = s[3]
    axd = wp.vec3d()
    angd = wp.float64(0.0)
    axd, angd = wp.quat_to_axis_angle(wp.quatd(-qd[0], -qd[1], -qd[2], -qd[3]))
    od[i, 6] = axd[0]
    od[i, 7] = axd[2]
    od[i, 8] = angd
    od[i, 9] = wp.skew(dv)[0, 1]
