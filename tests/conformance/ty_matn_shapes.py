# Matrices of shapes Warp has no alias for, 5x5 (float32), 10x3 (float64) and 2x6 (float32): arrays and a value parameter, indexing, rows, entry assignment, mat-vec, vec-mat and mat-mat products of matching shapes, transpose, outer, trace, the wp.matrix() forms.
# kern-test: ty_matn_shapes --dim 3 a='rand(mat5x5,3,seed=7)' v='rand(vec5,3,seed=8)' t='rand(mat10x3d,3,seed=9)' w='rand(mat2x6,3,seed=10)' p=1,2,3,4,5,6,7,8,9,10,11,12 oa='zeros(mat5x5,3)' ot='zeros(mat10x3d,3)' ow='zeros(mat2x6,3)' ov='zeros(vec5,3)' o10='zeros(vec10d,3)' o6='zeros(float32,3,6)' s='zeros(float64,3,4)'
# kern-check: oa
# kern-check: ot
# kern-check: ow
# kern-check: ov
# kern-check: o10
# kern-check: o6
# kern-check: s
import warp as wp

mat55 = wp.types.matrix(shape=(5, 5), dtype=wp.float32)
mat103d = wp.types.matrix(shape=(10, 3), dtype=wp.float64)
mat26 = wp.types.matrix((2, 6), dtype=float)
mat62 = wp.types.matrix((6, 2), dtype=float)
vec5 = wp.types.vector(length=5, dtype=float)
vec10d = wp.types.vector(length=10, dtype=wp.float64)


@wp.kernel
def ty_matn_shapes(a: wp.array(dtype=mat55), v: wp.array(dtype=vec5), t: wp.array(dtype=mat103d),
                   w: wp.array(dtype=mat26), p: mat26, oa: wp.array(dtype=mat55), ot: wp.array(dtype=mat103d),
                   ow: wp.array(dtype=mat26), ov: wp.array(dtype=vec5), o10: wp.array(dtype=vec10d),
                   o6: wp.array2d(dtype=float), s: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    m = a[i] * a[i] + wp.transpose(a[i]) * 0.5
    m[4, 0] = m[0, 4] + 1.0
    r = m[2]
    m[3] = r * 2.0
    oa[i] = m - wp.matrix(1.0, shape=(5, 5)) + wp.outer(v[i], v[i])
    ov[i] = m * v[i] + v[i] @ a[i]
    x = t[i]
    x[9, 2] = wp.float64(-1.0)
    u = wp.vector(wp.float64(1.0), wp.float64(2.0), wp.float64(3.0))
    o10[i] = x @ u
    g = wp.transpose(x) @ x
    s[i, 0] = wp.trace(g)
    o6[i, 0] = wp.trace(m)
    s[i, 2] = g[1, 2]
    s[i, 3] = wp.float64(len(x))
    ot[i] = x * wp.float64(2.0) + wp.matrix(shape=(10, 3), dtype=wp.float64)
    q = w[i] + p
    ow[i] = (q @ mat62(2.0)) @ p
    z = wp.vector(1.0, 1.0)
    y = z @ q
    for j in range(1, 6):
        o6[i, j] = y[j]
