# The swing-twist builtins in float32 (Warp has no float64 overloads):
# wp.quat_twist, wp.quat_twist_angle and wp.quat_twist_angle_signed about
# random unit axes, the axis negated and the coordinate axes.
# kern-test: ty_quat_twist32 --dim 12 a='rand(vec4,12,seed=142)' b='rand(vec3,12,seed=143)' oq='zeros(vec4,12,2)' out='zeros(float32,12,5)'
# why: the twist angle goes through acos/atan2; OpenCL's are one ulp off glibc
# kern-check: oq rtol=1e-5 atol=2e-6
# kern-check: out rtol=1e-5 atol=2e-6
import warp as wp


@wp.func
def v4(q: wp.quat) -> wp.vec4:
    return wp.vec4(q[0], q[1], q[2], q[3])


@wp.kernel
def ty_quat_twist32(a: wp.array(dtype=wp.vec4), b: wp.array(dtype=wp.vec3), oq: wp.array2d(dtype=wp.vec4),
                    out: wp.array2d(dtype=float)):
    i = wp.tid()
    x = a[i] - wp.vec4(0.5, 0.5, 0.5, 0.5)
    q = wp.normalize(wp.quat(x[0], x[1], x[2], x[3]))
    axis = wp.normalize(b[i] - wp.vec3(0.5, 0.25, 0.5))
    oq[i, 0] = v4(wp.quat_twist(axis, q))
    oq[i, 1] = v4(wp.quat_twist(wp.vec3(0.0, 0.0, 1.0), q))
    out[i, 0] = wp.quat_twist_angle(axis, q)
    out[i, 1] = wp.quat_twist_angle_signed(axis, q)
    out[i, 2] = wp.quat_twist_angle_signed(-axis, q)
    out[i, 3] = wp.quat_twist_angle(wp.vec3(1.0, 0.0, 0.0), q)
    out[i, 4] = wp.quat_twist_angle_signed(wp.vec3(0.0, 1.0, 0.0), q)
