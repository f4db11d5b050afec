# Non-square matrices: 2x3, 3x2, 3x4, 4x3 and 2x4 float32 matrices from
# wp.matrix(..., shape=) and from wp.outer of vectors of different lengths;
# products that change the shape,
# transpose, matrix times vector, element reads and writes.
# kern-test: ty_mat_nonsquare --dim 8 a='rand(vec4,8,seed=162)' b='rand(vec4,8,seed=163)' o='zeros(float32,8,24)'
# kern-check: o
import warp as wp


@wp.kernel
def ty_mat_nonsquare(a: wp.array(dtype=wp.vec4), b: wp.array(dtype=wp.vec4), o: wp.array2d(dtype=float)):
    i = wp.tid()
    x = a[i]
    y = b[i] - wp.vec4(0.5, 0.5, 0.5, 0.5)
    m = wp.matrix(x[0], x[1], x[2], y[0], y[1], y[2], shape=(2, 3), dtype=float)
    n = wp.matrix(y[3], x[3], x[0], y[1], y[2], x[2], shape=(3, 2), dtype=float)
    p = m * n
    q = n * m
    o[i, 0] = p[0, 0]
    o[i, 1] = p[1, 0] + p[0, 1]
    o[i, 2] = q[2, 2] + q[0, 1]
    o[i, 3] = wp.determinant(p)
    r = wp.outer(wp.vec3(x[0], x[1], x[2]), y)
    k = wp.matrix(shape=(3, 4), dtype=float)
    k[1, 3] = x[3]
    k[2] = y
    t = wp.transpose(r) * wp.vec3(1.0, 2.0, 3.0)
    for c in range(4):
        o[i, 4 + c] = t[c]
        o[i, 8 + c] = (r + k)[2, c]
    w = m * wp.vec3(y[0], y[1], y[2])
    o[i, 12] = w[0]
    o[i, 13] = w[1]
    u = wp.transpose(k) * r
    o[i, 14] = u[0, 0] + u[3, 3]
    o[i, 15] = u[1, 2] - u[2, 1]
    v = wp.vec2(x[1], y[3]) * m
    o[i, 16] = v[0]
    o[i, 17] = v[2]
    g = wp.matrix(x[0], x[1], x[2], x[3], y[0], y[1], y[2], y[3], shape=(2, 4), dtype=float)
    h = g * wp.transpose(g)
    o[i, 18] = h[0, 1]
    o[i, 19] = h[1, 1]
    o[i, 20] = wp.ddot(m, m)
    o[i, 21] = (m * 2.0 - m / 4.0)[1, 2]
    o[i, 22] = float(len(m)) + float(len(k[0]))
    o[i, 23] = (-n)[2, 1]
