# Spatial matrices in float32: wp.spatial_adjoint(R, S) of a rotation and a
# skew matrix, the 6x6 product with a spatial vector, wp.transpose, the
# 6x6 matrix product, wp.outer of two spatial vectors and indexing.
# kern-test: ty_spatial_adjoint32 --dim 8 a='rand(float32,8,12,seed=132)' out='zeros(float32,8,20)'
# kern-check: out
import warp as wp


@wp.kernel
def ty_spatial_adjoint32(a: wp.array2d(dtype=float), out: wp.array2d(dtype=float)):
    i = wp.tid()
    q = wp.normalize(wp.quat(a[i, 0] - 0.5, a[i, 1] - 0.5, a[i, 2] - 0.5, a[i, 3]))
    r = wp.quat_to_matrix(q)
    s = wp.skew(wp.vec3(a[i, 4], a[i, 5] - 0.5, a[i, 6])) * r
    m = wp.spatial_adjoint(r, s)
    x = wp.spatial_vector(a[i, 6], a[i, 7], a[i, 8], a[i, 9], a[i, 10], a[i, 11])
    y = m * x
    mt = wp.transpose(m)
    mm = mt * m
    o = wp.outer(x, y)
    for k in range(6):
        out[i, k] = y[k]
        out[i, 6 + k] = mm[k, k]
        out[i, 12 + k] = (mt * y)[k]
    out[i, 18] = o[1, 4] + m[4, 1]
    out[i, 19] = m[5, 2] - m[2, 5]
