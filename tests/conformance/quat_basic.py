# Quaternions (wp.quat, wp.quatd): construction from components, wp.quat() (zero),
# wp.quat_identity, wp.quat_from_axis_angle (the axis is not normalised, as in Warp),
# the Hamilton product q * r, quat * scalar, + and -, wp.quat_inverse, wp.quat_rotate and
# wp.quat_rotate_inv, wp.normalize (the zero quaternion gives the identity), wp.length,
# wp.dot, components by index and by .x .y .z .w, quaternions through @wp.func.
# kern-test: quat_basic --dim 5 a='rand(float32,5,4,seed=11)' p='rand(vec3,5,seed=12)' d='rand(float64,5,4,seed=13)' out='zeros(vec4,5,6)' ov='zeros(vec3,5,3)' os='zeros(float32,5,4)' od='zeros(float64,5,4)'
# kern-check: out
# kern-check: ov
# kern-check: os
# kern-check: od
import warp as wp


@wp.func
def turn(q: wp.quat, angle: float) -> wp.quat:
    return q * wp.quat_from_axis_angle(wp.vec3(0.0, 0.0, 1.0), angle)


@wp.func
def as_vec(q: wp.quat) -> wp.vec4:
    return wp.vec4(q.x, q.y, q.z, q.w)


@wp.kernel
def quat_basic(a: wp.array2d(dtype=float), p: wp.array(dtype=wp.vec3), d: wp.array2d(dtype=wp.float64),
               out: wp.array2d(dtype=wp.vec4), ov: wp.array2d(dtype=wp.vec3), os: wp.array2d(dtype=float),
               od: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    q = wp.quat(a[i, 0], a[i, 1], a[i, 2], a[i, 3])
    r = wp.quat_from_axis_angle(wp.vec3(1.0, 2.0, 0.5), float(i) * 0.7)
    u = wp.normalize(q)
    out[i, 0] = as_vec(q * r)
    out[i, 1] = as_vec(r * q * 2.0 - q + wp.quat_identity())
    out[i, 2] = as_vec(wp.quat_inverse(u))
    out[i, 3] = as_vec(turn(u, 0.25))
    out[i, 4] = as_vec(wp.normalize(wp.quat()))
    out[i, 5] = as_vec(q / 2.0)
    ov[i, 0] = wp.quat_rotate(u, p[i])
    ov[i, 1] = wp.quat_rotate_inv(u, p[i])
    ov[i, 2] = wp.quat_rotate_inv(u, wp.quat_rotate(u, p[i]))
    os[i, 0] = wp.length(q)
    os[i, 1] = wp.dot(q, r)
    os[i, 2] = q[3] + q[-4] + r.w
    os[i, 3] = wp.length(wp.quat_from_axis_angle(wp.vec3(0.0, 3.0, 4.0), 1.0))
    qd = wp.quatd(d[i, 0], d[i, 1], d[i, 2], d[i, 3])
    rd = wp.quat_from_axis_angle(wp.vec3d(wp.float64(0.0), wp.float64(1.0), wp.float64(0.0)), wp.float64(0.3))
    m = wp.normalize(qd * rd)
    od[i, 0] = m.x
    od[i, 1] = m.w
    od[i, 2] = wp.quat_rotate(m, wp.vec3d(wp.float64(1.0), wp.float64(0.0), wp.float64(0.0)))[1]
    od[i, 3] = wp.quat_identity(dtype=wp.float64).w
