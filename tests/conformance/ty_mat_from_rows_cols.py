# wp.matrix_from_rows and wp.matrix_from_cols for square and non-square
# shapes (2x2 .. 4x4, 2x4 and 3x2 by the number and length of the vectors),
# in float32 and float64, and rows/columns read back with indexing.
# kern-test: ty_mat_from_rows_cols --dim 8 a='rand(vec4,8,seed=164)' d='rand(vec4d,8,seed=165)' o='zeros(float32,8,12)' od='zeros(float64,8,6)'
# kern-check: o
# kern-check: od
import warp as wp


@wp.kernel
def ty_mat_from_rows_cols(a: wp.array(dtype=wp.vec4), d: wp.array(dtype=wp.vec4d), o: wp.array2d(dtype=float),
                          od: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    x = a[i]
    y = x * 2.0 - wp.vec4(1.0, 1.0, 1.0, 1.0)
    r24 = wp.matrix_from_rows(x, y)
    c42 = wp.matrix_from_cols(x, y)
    r32 = wp.matrix_from_rows(wp.vec2(x[0], y[0]), wp.vec2(x[1], y[1]), wp.vec2(x[2], y[2]))
    c22 = wp.matrix_from_cols(wp.vec2(x[3], y[3]), wp.vec2(x[0], y[1]))
    c33 = wp.matrix_from_cols(wp.vec3(x[0], x[1], x[2]), wp.vec3(y[0], y[1], y[2]), wp.vec3(1.0, 2.0, 3.0))
    p = r24 * c42
    o[i, 0] = p[0, 1]
    o[i, 1] = p[1, 1]
    o[i, 2] = (c42 * r24)[3, 0]
    o[i, 3] = r32[2, 1] + c22[0, 1]
    o[i, 4] = (r32 * c22)[1, 0]
    o[i, 5] = wp.determinant(c33)
    o[i, 6] = c33[2, 1]
    o[i, 7] = wp.transpose(c42)[1, 3]
    o[i, 8] = wp.determinant(c22)
    o[i, 9] = wp.trace(c33 * c33)
    o[i, 10] = float(len(r24[0]))
    o[i, 11] = (c42 * wp.vec2(1.0, -1.0))[2]
    e = d[i]
    f = wp.matrix_from_rows(e, e * wp.float64(2.0), wp.vec4d(wp.float64(1.0)), -e)
    g = wp.matrix_from_cols(wp.vec3d(e[0], e[1], e[2]), wp.vec3d(e[3], e[2], e[1]))
    od[i, 0] = wp.determinant(f + wp.identity(n=4, dtype=wp.float64))
    od[i, 1] = f[1, 3]
    od[i, 2] = g[2, 1]
    od[i, 3] = (wp.transpose(g) * g)[0, 1]
    od[i, 4] = (f * wp.vec4d(e[3], e[2], e[1], e[0]))[2]
    od[i, 5] = wp.trace(f)
