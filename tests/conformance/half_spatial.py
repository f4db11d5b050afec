# float16 spatial vectors and matrices (wp.spatial_vectorh,
# wp.spatial_matrixh): arrays of them, constructors (6 components, zero,
# Warp builds one from two 3-vectors in float32 only), arithmetic rounded per operation as
# Warp's half templates, components, spatial_top/bottom, spatial_dot,
# spatial_cross, spatial_cross_dual, spatial_adjoint of two mat33h, and a
# 6x6 matrix times a 6-vector.
# kern-test: half_spatial --dim 6 a='rand(spatial_vectorh,6,seed=51)' b='rand(vec3h,6,2,seed=52)' m='rand(spatial_matrixh,6,seed=53)' ov='zeros(spatial_vectorh,6,7)' os='zeros(float16,6,2)' om='zeros(spatial_matrixh,6,2)'
# kern-check: ov
# kern-check: os
# kern-check: om
import warp as wp


@wp.kernel
def half_spatial(a: wp.array(dtype=wp.spatial_vectorh), b: wp.array2d(dtype=wp.vec3h),
                 m: wp.array(dtype=wp.spatial_matrixh), ov: wp.array2d(dtype=wp.spatial_vectorh),
                 os: wp.array2d(dtype=wp.float16), om: wp.array2d(dtype=wp.spatial_matrixh)):
    i = wp.tid()
    x = a[i]
    p = b[i, 0]
    q = b[i, 1]
    y = wp.spatial_vectorh(p[0], p[1], p[2], q[0], q[1], q[2])
    h = wp.float16(0.5)
    z = wp.spatial_vectorh(h, h, wp.float16(1.0), wp.float16(-2.0), h, wp.float16(3.0))
    ov[i, 0] = x + y
    ov[i, 1] = (x - z) * wp.float16(1.5)
    ov[i, 2] = wp.spatial_cross(x, y)
    ov[i, 3] = wp.spatial_cross_dual(x, y)
    ov[i, 4] = m[i] * x
    w = wp.spatial_vectorh()
    w[2] = wp.spatial_top(x)[1]
    w[5] = wp.spatial_bottom(y)[0]
    ov[i, 5] = w
    ov[i, 6] = -y
    os[i, 0] = wp.spatial_dot(x, y)
    os[i, 1] = x[3] * y[4]
    r = wp.mat33h(b[i, 0][0], b[i, 0][1], b[i, 0][2], b[i, 1][0], b[i, 1][1], b[i, 1][2], h, h, h)
    s = wp.mat33h(h, wp.float16(0.0), h, wp.float16(1.0), h, wp.float16(0.0), h, h, wp.float16(2.0))
    om[i, 0] = wp.spatial_adjoint(r, s)
    om[i, 1] = m[i] + wp.transpose(m[i])
