# float64 transforms and 4x4 matrices: wp.transform_to_matrix of a
# transformd, wp.transform_from_matrix back, and wp.transform_point /
# wp.transform_vector applied with a mat44d (Warp's matrix overloads).
# kern-test: ty_xform_matrix64 --dim 8 a='rand(float64,8,10,seed=122)' out='zeros(float64,8,20)'
# kern-check: out
import warp as wp


@wp.kernel
def ty_xform_matrix64(a: wp.array2d(dtype=wp.float64), out: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    h = wp.float64(0.5)
    p = wp.vec3d(a[i, 0] * wp.float64(3.0), a[i, 1] - h, a[i, 2])
    q = wp.normalize(wp.quatd(a[i, 3] - h, a[i, 4] - h, a[i, 5] - h, a[i, 6] - h))
    t = wp.transformd(p, q)
    m = wp.transform_to_matrix(t)
    t2 = wp.transform_from_matrix(m)
    v = wp.vec3d(a[i, 7], a[i, 8], a[i, 9])
    a1 = wp.transform_point(m, v)
    a2 = wp.transform_vector(m, v)
    for k in range(7):
        out[i, k] = t2[k]
    for k in range(3):
        out[i, 7 + k] = a1[k]
        out[i, 10 + k] = a2[k]
        out[i, 13 + k] = m[k, 3]
    out[i, 16] = m[0, 0]
    out[i, 17] = m[1, 2]
    out[i, 18] = m[3, 3]
    out[i, 19] = wp.determinant(m)
