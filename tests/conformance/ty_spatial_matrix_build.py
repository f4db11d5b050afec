# Spatial matrices built element by element: wp.spatial_matrix from 36
# values, writes of elements and rows, wp.transpose, scalar products, sums,
# products with spatial vectors on both sides, wp.outer and trace-like
# reductions through indexing.
# kern-test: ty_spatial_matrix_build --dim 6 a='rand(float32,6,36,seed=293)' out='zeros(float32,6,16)'
# kern-check: out
import warp as wp


@wp.kernel
def ty_spatial_matrix_build(a: wp.array2d(dtype=float), out: wp.array2d(dtype=float)):
    i = wp.tid()
    m = wp.spatial_matrix(a[i, 0], a[i, 1], a[i, 2], a[i, 3], a[i, 4], a[i, 5],
                          a[i, 6], a[i, 7], a[i, 8], a[i, 9], a[i, 10], a[i, 11],
                          a[i, 12], a[i, 13], a[i, 14], a[i, 15], a[i, 16], a[i, 17],
                          a[i, 18], a[i, 19], a[i, 20], a[i, 21], a[i, 22], a[i, 23],
                          a[i, 24], a[i, 25], a[i, 26], a[i, 27], a[i, 28], a[i, 29],
                          a[i, 30], a[i, 31], a[i, 32], a[i, 33], a[i, 34], a[i, 35])
    m[2, 3] = float(i)
    m[5] = wp.spatial_vector(1.0, -1.0, 2.0, -2.0, 0.5, float(i))
    x = wp.spatial_vector(a[i, 5], a[i, 4], a[i, 3], a[i, 2], a[i, 1], a[i, 0])
    y = m * x
    z = x * m
    n = wp.transpose(m) * 2.0 + m
    p = m * n
    tr = float(0.0)
    for k in range(6):
        tr = tr + p[k, k]
        out[i, k] = y[k] - z[k]
    out[i, 6] = tr
    out[i, 7] = wp.spatial_dot(y, z)
    o = wp.outer(x, y)
    out[i, 8] = o[0, 5] + o[5, 0]
    out[i, 9] = n[1, 4]
    out[i, 10] = (m - n)[3, 2]
    out[i, 11] = p[2, 3]
    out[i, 12] = (m * 0.5)[5, 5]
    out[i, 13] = (n * x)[4]
    out[i, 14] = wp.spatial_top(m * y)[1]
    out[i, 15] = wp.spatial_bottom(n * z)[2]
