# float64 spatial vectors: wp.spatial_vectord from six values, wp.spatial_top, wp.spatial_bottom, wp.spatial_dot,
# wp.spatial_cross, wp.spatial_cross_dual, +, -, scalar *.
# kern-test: ty_spatial_ops64 --dim 8 a='rand(float64,8,12,seed=131)' out='zeros(float64,8,26)'
# kern-check: out
import warp as wp


@wp.kernel
def ty_spatial_ops64(a: wp.array2d(dtype=wp.float64), out: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    h = wp.float64(0.5)
    x = wp.spatial_vectord(a[i, 0] - h, a[i, 1], a[i, 2] - h, a[i, 3], a[i, 4] - h, a[i, 5])
    w = wp.vec3d(a[i, 6], a[i, 7] - h, a[i, 8])
    v = wp.vec3d(a[i, 9] - h, a[i, 10], a[i, 11] - h)
    y = wp.spatial_vectord(w[0], w[1], w[2], v[0], v[1], v[2])
    c = wp.spatial_cross(x, y)
    cd = wp.spatial_cross_dual(x, y)
    s = x * wp.float64(2.0) - y + x
    for k in range(6):
        out[i, k] = c[k]
        out[i, 6 + k] = cd[k]
        out[i, 12 + k] = s[k]
    for k in range(3):
        out[i, 18 + k] = wp.spatial_top(c)[k]
        out[i, 21 + k] = wp.spatial_bottom(cd)[k]
    out[i, 24] = wp.spatial_dot(x, y)
    out[i, 25] = wp.spatial_dot(c, cd)
