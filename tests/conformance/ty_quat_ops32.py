# Quaternion arithmetic in float32: +, -, unary minus, scalar * and / (both
# sides), wp.dot, wp.length, wp.length_sq, wp.normalize, wp.mul, component
# reads by index and .x/.y/.z/.w, and a component written in place.
# kern-test: ty_quat_ops32 --dim 12 a='rand(vec4,12,seed=111)' b='rand(vec4,12,seed=112)' out='zeros(vec4,12,5)' s='zeros(float32,12,4)'
# kern-check: out
# kern-check: s
import warp as wp


@wp.func
def v4(q: wp.quat) -> wp.vec4:
    return wp.vec4(q[0], q[1], q[2], q[3])


@wp.kernel
def ty_quat_ops32(a: wp.array(dtype=wp.vec4), b: wp.array(dtype=wp.vec4), out: wp.array2d(dtype=wp.vec4),
                  s: wp.array2d(dtype=float)):
    i = wp.tid()
    q = wp.quat(a[i][0], a[i][1] - 0.5, a[i][2], a[i][3] - 0.25)
    r = wp.quat(b[i][3], b[i][2], b[i][1] - 0.5, b[i][0])
    out[i, 0] = v4(q + r) - v4(-r)
    out[i, 1] = v4(q - r * 2.0)
    out[i, 2] = v4(3.0 * q / 2.0)
    out[i, 3] = v4(wp.normalize(wp.mul(q, r)))
    q[2] = q.w * 2.0
    out[i, 4] = v4(q)
    s[i, 0] = wp.dot(q, r)
    s[i, 1] = wp.length(r)
    s[i, 2] = wp.length_sq(q)
    s[i, 3] = q.x + q.y * 10.0 + r.z * 100.0
