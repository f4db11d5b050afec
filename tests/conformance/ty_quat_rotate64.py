# float64 quaternion rotation: wp.quat_rotate and wp.quat_rotate_inv of a
# vec3d, the Hamilton product of two quatd, wp.quat_to_matrix of a quatd
# applied to the vector (equal to quat_rotate up to rounding), and
# normalize/length/dot on quatd.
# kern-test: ty_quat_rotate64 --dim 10 a='rand(float64,10,7,seed=103)' out='zeros(float64,10,17)'
# kern-check: out
import warp as wp


@wp.kernel
def ty_quat_rotate64(a: wp.array2d(dtype=wp.float64), out: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    h = wp.float64(0.5)
    q = wp.normalize(wp.quatd(a[i, 0] - h, a[i, 1] - h, a[i, 2] - h, a[i, 3] + h))
    v = wp.vec3d(a[i, 4], a[i, 5] - h, a[i, 6] * wp.float64(3.0))
    r = wp.quat_rotate(q, v)
    ri = wp.quat_rotate_inv(q, r)
    m = wp.quat_to_matrix(q)
    mv = m * v
    for k in range(3):
        out[i, k] = r[k]
        out[i, 3 + k] = ri[k]
        out[i, 6 + k] = mv[k]
    p = q * wp.quatd(a[i, 6], a[i, 5], a[i, 4], h)
    for k in range(4):
        out[i, 9 + k] = p[k]
    out[i, 13] = wp.length(p)
    out[i, 14] = wp.dot(q, p)
    out[i, 15] = m[1, 2] - m[2, 1]
    out[i, 16] = wp.length_sq(p)
