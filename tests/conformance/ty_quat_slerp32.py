# wp.quat_slerp in float32 between random unit quaternions, at t = 0, 1 and
# values between (also past the ends), including a pair with a negative dot
# product.
# kern-test: ty_quat_slerp32 --dim 12 a='rand(vec4,12,seed=104)' b='rand(vec4,12,seed=105)' out='zeros(vec4,12,4)'
# why: slerp goes through acos and sin of the platform (one ulp on OpenCL)
# kern-check: out rtol=1e-5 atol=2e-6
import warp as wp


@wp.func
def v4(q: wp.quat) -> wp.vec4:
    return wp.vec4(q[0], q[1], q[2], q[3])


@wp.kernel
def ty_quat_slerp32(a: wp.array(dtype=wp.vec4), b: wp.array(dtype=wp.vec4), out: wp.array2d(dtype=wp.vec4)):
    i = wp.tid()
    h = wp.vec4(0.5, 0.5, 0.5, 0.5)
    x = a[i] - h
    y = b[i] - h
    q = wp.normalize(wp.quat(x[0], x[1], x[2], x[3]))
    r = wp.normalize(wp.quat(y[0], y[1], y[2], y[3]))
    t = float(i) / 11.0
    out[i, 0] = v4(wp.quat_slerp(q, r, t))
    out[i, 1] = v4(wp.quat_slerp(q, r, 0.0))
    out[i, 2] = v4(wp.quat_slerp(q, -r, 1.0 - t * 0.5))
    out[i, 3] = v4(wp.quat_slerp(r, q, 0.35))
