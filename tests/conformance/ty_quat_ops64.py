# float64 quaternion arithmetic (quatd): +, -, unary minus, scalar * and /,
# the Hamilton product, dot, length, normalize, quat_inverse, component
# reads and writes, and wp.quaternion(ijk, real) with float64 parts.
# kern-test: ty_quat_ops64 --dim 10 a='rand(float64,10,8,seed=271)' out='zeros(float64,10,20)'
# kern-check: out
import warp as wp


@wp.kernel
def ty_quat_ops64(a: wp.array2d(dtype=wp.float64), out: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    h = wp.float64(0.5)
    q = wp.quatd(a[i, 0] - h, a[i, 1], a[i, 2] - h, a[i, 3])
    r = wp.quaternion(wp.vec3d(a[i, 4], a[i, 5] - h, a[i, 6]), a[i, 7] - h)
    s = q + r * wp.float64(2.0) - (-q) / wp.float64(3.0)
    p = q * r
    n = wp.normalize(p)
    qi = wp.quat_inverse(n)
    q[1] = r[3] * wp.float64(4.0)
    for k in range(4):
        out[i, k] = s[k]
        out[i, 4 + k] = p[k]
        out[i, 8 + k] = (n * qi)[k]
        out[i, 12 + k] = q[k]
    out[i, 16] = wp.dot(q, r)
    out[i, 17] = wp.length(p)
    out[i, 18] = wp.length_sq(q - r)
    out[i, 19] = n.x + n.y * wp.float64(10.0) + n.z * wp.float64(100.0) + n.w * wp.float64(1000.0)
