# Scalar, vector, matrix and struct parameters of @wp.func are values: changing them
# inside (v[0] = ..., m[1, 1] += ..., s.k = ..., x += ...) leaves the caller's
# variables unchanged, while an array parameter is a reference.
# kern-test: lang_func_value_params --dim 4 x='rand(float,4,seed=921)' a='zeros(float,4)' out='zeros(float,4,6)'
# kern-check: a
# kern-check: out
import warp as wp


@wp.struct
class Box:
    k: int
    w: float


@wp.func
def clobber(x: float, v: wp.vec3, m: wp.mat22, b: Box, a: wp.array(dtype=float), i: int) -> float:
    x += 100.0
    v[0] = -5.0
    m[1, 1] += 7.0
    b.k = 99
    b.w = b.w * 2.0
    a[i] = x + v[0] + m[1, 1] + float(b.k)
    return b.w


@wp.kernel
def lang_func_value_params(x: wp.array(dtype=float), a: wp.array(dtype=float), out: wp.array2d(dtype=float)):
    i = wp.tid()
    f = x[i]
    v = wp.vec3(f, 2.0, 3.0)
    m = wp.mat22(1.0, 2.0, 3.0, f)
    b = Box()
    b.k = i
    b.w = f
    r = clobber(f, v, m, b, a, i)
    out[i, 0] = f
    out[i, 1] = v[0]
    out[i, 2] = m[1, 1]
    out[i, 3] = float(b.k)
    out[i, 4] = b.w
    out[i, 5] = r
