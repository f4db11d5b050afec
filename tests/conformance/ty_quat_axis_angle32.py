# Quaternions from and to axis-angle in float32: wp.quat_from_axis_angle on
# normalized random axes and angles beyond pi, wp.quat_to_axis_angle back
# (unpacked), wp.quat_identity, wp.quat_inverse and the product q * inv(q).
# kern-test: ty_quat_axis_angle32 --dim 12 a='rand(vec4,12,seed=101)' out='zeros(vec4,12,4)' ang='zeros(float32,12)'
# why: quat_to_axis_angle goes through acos/atan2; OpenCL's are one ulp off glibc
# kern-check: out rtol=1e-5 atol=2e-6
# kern-check: ang rtol=1e-5 atol=2e-6
import warp as wp


@wp.func
def v4(q: wp.quat) -> wp.vec4:
    return wp.vec4(q[0], q[1], q[2], q[3])


@wp.kernel
def ty_quat_axis_angle32(a: wp.array(dtype=wp.vec4), out: wp.array2d(dtype=wp.vec4), ang: wp.array(dtype=float)):
    i = wp.tid()
    axis = wp.normalize(wp.vec3(a[i][0] - 0.5, a[i][1] - 0.3, a[i][2] - 0.6))
    angle = (a[i][3] - 0.5) * 7.0
    q = wp.quat_from_axis_angle(axis, angle)
    out[i, 0] = v4(q)
    ax = wp.vec3()
    an = float(0.0)
    ax, an = wp.quat_to_axis_angle(q)
    out[i, 1] = wp.vec4(ax[0], ax[1], ax[2], an)
    out[i, 2] = v4(wp.quat_inverse(q)) + v4(wp.quat_identity())
    out[i, 3] = v4(q * wp.quat_inverse(q) * wp.quat_from_axis_angle(wp.vec3(0.0, 1.0, 0.0), float(i) * 0.25))
    ang[i] = an
