# wp.quat_from_euler and wp.quat_to_euler in float32 (Warp has no float64
# overloads) for the axis sequences builtin_quat_more.py leaves out:
# Tait-Bryan xzy, yxz, yzx, zyx and proper xzx, yzy, zyz, xyx round trips.
# kern-test: ty_quat_euler32 --dim 12 a='rand(vec3,12,seed=141)' out='zeros(vec3,12,8)' oq='zeros(vec4,12,4)'
# why: quat_to_euler goes through atan2 and acos; OpenCL's are one ulp off glibc
# kern-check: out rtol=1e-5 atol=2e-6
# kern-check: oq rtol=1e-5 atol=2e-6
import warp as wp


@wp.func
def v4(q: wp.quat) -> wp.vec4:
    return wp.vec4(q[0], q[1], q[2], q[3])


@wp.kernel
def ty_quat_euler32(a: wp.array(dtype=wp.vec3), out: wp.array2d(dtype=wp.vec3), oq: wp.array2d(dtype=wp.vec4)):
    i = wp.tid()
    e = (a[i] - wp.vec3(0.5, 0.5, 0.5)) * 2.5
    q1 = wp.quat_from_euler(e, 0, 2, 1)
    q2 = wp.quat_from_euler(e, 1, 0, 2)
    q3 = wp.quat_from_euler(e, 0, 2, 0)
    q4 = wp.quat_from_euler(e, 1, 2, 1)
    oq[i, 0] = v4(q1)
    oq[i, 1] = v4(q2)
    oq[i, 2] = v4(q3)
    oq[i, 3] = v4(q4)
    out[i, 0] = wp.quat_to_euler(q1, 0, 2, 1)
    out[i, 1] = wp.quat_to_euler(q2, 1, 0, 2)
    out[i, 2] = wp.quat_to_euler(q3, 0, 2, 0)
    out[i, 3] = wp.quat_to_euler(q4, 1, 2, 1)
    out[i, 4] = wp.quat_to_euler(q1, 1, 2, 0)
    out[i, 5] = wp.quat_to_euler(q2, 2, 1, 0)
    out[i, 6] = wp.quat_to_euler(q3, 2, 1, 2)
    out[i, 7] = wp.quat_to_euler(q4, 0, 1, 0)
