# Vectors of lengths 7 (float64), 9 and 10 (int32): arithmetic, integer division, component assignment, augmented assignment into arrays, dot and the wp.types.vector() copy that converts the dtype.
# kern-test: ty_vecn_float64_int --dim 3 d='rand(vec7d,3,seed=5)' k='rand(vec9i,3,seed=6)' t='arange(vec10i,3)' od='zeros(vec7d,3)' ok='zeros(vec9i,3)' ot='zeros(vec10i,3)' sd='zeros(float64,3,3)' si='zeros(int32,3,3)'
# kern-check: od
# kern-check: ok
# kern-check: ot
# kern-check: sd
# kern-check: si
import warp as wp

vec7d = wp.types.vector(length=7, dtype=wp.float64)
vec9i = wp.types.vector(9, wp.int32)
vec10i = wp.types.vector(length=10, dtype=int)
N10 = wp.constant(10)


@wp.kernel
def ty_vecn_float64_int(d: wp.array(dtype=vec7d), k: wp.array(dtype=vec9i), t: wp.array(dtype=vec10i),
                        od: wp.array(dtype=vec7d), ok: wp.array(dtype=vec9i), ot: wp.array(dtype=vec10i),
                        sd: wp.array2d(dtype=wp.float64), si: wp.array2d(dtype=int)):
    i = wp.tid()
    x = d[i] * wp.float64(1.5) + vec7d(wp.float64(0.25))
    x[6] = x[0] - x[5]
    od[i] = wp.normalize(x) + wp.vector(length=7, dtype=wp.float64)
    sd[i, 0] = wp.dot(x, d[i])
    sd[i, 1] = wp.length(x)
    f = wp.types.vector(k[i], dtype=wp.float64)
    sd[i, 2] = f[8] / wp.float64(3.0)
    q = k[i] * 3 + vec9i(1, 2, 3, 4, 5, 6, 7, 8, 9)
    q = q / 2 + wp.cw_mul(q, k[i])
    q[i] = -q[i]
    ok[i] = q
    ok[i] += vec9i(1)
    si[i, 0] = wp.dot(q, k[i])
    si[i, 1] = wp.max(q) - wp.min(q)
    z = wp.vector(length=N10, dtype=int)
    for j in range(N10):
        z[j] = t[i][j] * j
    ot[i] = z - t[i]
    ot[i][9] = 77
    si[i, 2] = len(z)
