# Vectors of lengths Warp has no alias for (1 and 5, float32): arrays, a value parameter, arithmetic, indexing, component assignment, dot/length/normalize, comparisons and the wp.vector() forms.
# kern-test: ty_vecn_float32 --dim 4 a='rand(vec5,4,seed=3)' b='rand(vec5,4,seed=4)' s=1,-2,0.5,3,-1 one='arange(vec1,4)' out='zeros(vec5,4)' sc='zeros(float32,4,8)' o1='zeros(vec1,4)'
# kern-check: out
# kern-check: sc
# kern-check: o1
import warp as wp

vec5 = wp.types.vector(length=5, dtype=wp.float32)
vec1 = wp.types.vector(length=1, dtype=float)


@wp.func
def twice(v: vec5) -> vec5:
    return v * 2.0


@wp.kernel
def ty_vecn_float32(a: wp.array(dtype=vec5), b: wp.array(dtype=vec5), s: vec5, one: wp.array(dtype=vec1),
                    out: wp.array(dtype=vec5), sc: wp.array2d(dtype=float), o1: wp.array(dtype=vec1)):
    i = wp.tid()
    u = a[i] + b[i] * 3.0 - s / 2.0
    u[1] = u[0] * u[4]
    u[3] += 1.5
    w = wp.vector(1.0, 2.0, 3.0, 4.0, 5.0)
    z = wp.vector(length=5, dtype=float)
    z[2] = -u[2]
    f = wp.vector(0.25, length=5)
    c = vec5(w)
    out[i] = twice(u) + wp.cw_mul(w, f) - z + wp.cw_div(c, w) + (-b[i])
    sc[i, 0] = wp.dot(u, w)
    sc[i, 1] = wp.length(a[i])
    sc[i, 2] = wp.length_sq(u)
    n = wp.normalize(b[i] + s)
    sc[i, 3] = n[0] + n[4]
    sc[i, 4] = wp.min(u) + wp.max(w)
    sc[i, 5] = float(len(u))
    if a[i] == a[i]:
        sc[i, 6] = 1.0
    if not (a[i] == b[i]):
        sc[i, 7] = 2.0
    v1 = one[i] * 2.0 + vec1(1.0)
    v1[0] = v1[0] + wp.dot(one[i], one[i])
    o1[i] = v1
