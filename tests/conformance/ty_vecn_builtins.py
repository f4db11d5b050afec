# Builtins on vectors and matrices of custom sizes: float16 and int64 vectors, diag/get_diag, slices, .x/.w, atomic_add of a 5-vector, componentwise abs/max, ddot, where, lerp, identity(n=5), expect_near, matrix_from_rows/cols of any count and of int vectors.
# kern-test: ty_vecn_builtins --dim 2 a='rand(vec5,2,seed=12)' h='rand(vec5h,2,seed=13)' n='rand(vec6l,2,seed=14)' acc='zeros(vec5,1)' out='zeros(float32,2)' oa='zeros(vec5,2)' oh='zeros(vec5h,2)' on='zeros(vec6l,2)' om='zeros(mat5x5,2)' oi='zeros(mat3x2i,2)' oc='zeros(mat5x1,2)'
# kern-check: acc
# kern-check: out
# kern-check: oa
# kern-check: oh
# kern-check: on
# kern-check: om
# kern-check: oi
# kern-check: oc
import warp as wp

vec5 = wp.types.vector(length=5, dtype=wp.float32)
vec5h = wp.types.vector(length=5, dtype=wp.float16)
vec6l = wp.types.vector(length=6, dtype=wp.int64)
mat55 = wp.types.matrix(shape=(5, 5), dtype=wp.float32)
mat32i = wp.types.matrix(shape=(3, 2), dtype=wp.int32)
mat51 = wp.types.matrix(shape=(5, 1), dtype=wp.float32)


@wp.kernel
def ty_vecn_builtins(a: wp.array(dtype=vec5), h: wp.array(dtype=vec5h), n: wp.array(dtype=vec6l),
                     acc: wp.array(dtype=vec5), out: wp.array(dtype=float), oa: wp.array(dtype=vec5),
                     oh: wp.array(dtype=vec5h), on: wp.array(dtype=vec6l), om: wp.array(dtype=mat55),
                     oi: wp.array(dtype=mat32i), oc: wp.array(dtype=mat51)):
    i = wp.tid()
    v = a[i]
    wp.atomic_add(acc, 0, v)
    d = wp.diag(v)
    g = wp.get_diag(d * 2.0)
    s = v[1:4]
    x = v.x + v.w
    oh[i] = h[i] * wp.float16(2.0) + h[i]
    on[i] = n[i] * wp.int64(3) - vec6l(wp.int64(7))
    m = wp.abs(v - g) + wp.max(v, g * 0.25)
    out[i] = x + s[2] + m[3] + wp.ddot(d, d)
    wp.expect_near(v, v, 0.1)
    oa[i] = wp.lerp(v, g, 0.25) + wp.where(v[0] > 0.5, v, g)
    om[i] = wp.identity(n=5, dtype=float) * 3.0 + d
    r = wp.matrix_from_rows(v, g, v, g, v)
    om[i] = om[i] + r
    oi[i] = wp.matrix_from_rows(wp.vec2i(1, i), wp.vec2i(3, 4), wp.vec2i(i, 6))
    oc[i] = wp.matrix_from_cols(v)
