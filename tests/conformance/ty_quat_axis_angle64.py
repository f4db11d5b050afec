# The float64 quaternion from and to axis-angle: wp.quat_from_axis_angle with
# a vec3d axis and float64 angle, wp.quat_to_axis_angle of a quatd (unpacked
# into vec3d and float64), wp.quat_identity(dtype=wp.float64),
# wp.quat_inverse on quatd.
# kern-test: ty_quat_axis_angle64 --dim 12 a='rand(float64,12,4,seed=102)' out='zeros(float64,12,16)'
# why: quat_to_axis_angle goes through the platform's acos/atan2 in double
# kern-check: out rtol=1e-12 atol=1e-13
import warp as wp


@wp.kernel
def ty_quat_axis_angle64(a: wp.array2d(dtype=wp.float64), out: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    h = wp.float64(0.5)
    axis = wp.normalize(wp.vec3d(a[i, 0] - h, a[i, 1] - wp.float64(0.3), a[i, 2] - wp.float64(0.6)))
    angle = (a[i, 3] - h) * wp.float64(7.0)
    q = wp.quat_from_axis_angle(axis, angle)
    ax = wp.vec3d()
    an = wp.float64(0.0)
    ax, an = wp.quat_to_axis_angle(q)
    qi = wp.quat_inverse(q)
    e = wp.quat_identity(dtype=wp.float64)
    for k in range(4):
        out[i, k] = q[k]
        out[i, 4 + k] = qi[k] + e[k]
    for k in range(3):
        out[i, 8 + k] = ax[k]
    out[i, 11] = an
    r = q * wp.quatd(h, h, h, h)
    for k in range(4):
        out[i, 12 + k] = r[k]
