# wp.spatial_adjoint and spatial matrix products in float64
# (wp.spatial_matrixd, wp.spatial_vectord); Warp has no float64
# transform_twist, transform_wrench or velocity_at_point.
# kern-test: ty_spatial_adjoint64 --dim 8 a='rand(float64,8,13,seed=133)' out='zeros(float64,8,24)'
# kern-check: out
import warp as wp


@wp.kernel
def ty_spatial_adjoint64(a: wp.array2d(dtype=wp.float64), out: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    h = wp.float64(0.5)
    q = wp.normalize(wp.quatd(a[i, 0] - h, a[i, 1] - h, a[i, 2] - h, a[i, 3]))
    r = wp.quat_to_matrix(q)
    p = wp.vec3d(a[i, 4], a[i, 5] - h, a[i, 6])
    m = wp.spatial_adjoint(r, wp.skew(p) * r)
    x = wp.spatial_vectord(a[i, 7], a[i, 8], a[i, 9], a[i, 10], a[i, 11], a[i, 12])
    y = m * x
    tw = wp.transpose(m) * y
    wr = wp.spatial_cross(x, y)
    vp = wp.spatial_top(y) + wp.spatial_bottom(x)
    for k in range(6):
        out[i, k] = y[k]
        out[i, 6 + k] = tw[k]
        out[i, 12 + k] = wr[k]
    for k in range(3):
        out[i, 18 + k] = vp[k]
    out[i, 21] = wp.spatial_dot(y, tw)
    out[i, 22] = m[3, 0]
    out[i, 23] = (m * m)[4, 2]
