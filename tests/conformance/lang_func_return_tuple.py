# @wp.func returning several values (a tuple of scalars, a vector and an int; a
# function with two return statements returning tuples), unpacked by the caller and
# passed on to another multi-valued function.
# kern-test: lang_func_return_tuple --dim 5 x='rand(float,5,seed=261)' k='rand(int32,5,seed=262)' out='zeros(float,5,6)' oi='zeros(int32,5,2)'
# kern-check: out
# kern-check: oi
import warp as wp


@wp.func
def minmax(a: float, b: float):
    if a < b:
        return a, b
    return b, a


@wp.func
def polar(x: float, y: float):
    return wp.sqrt(x * x + y * y), wp.atan2(y, x)


@wp.func
def split(k: int, x: float):
    return k // 10, k % 10, wp.vec2(x, -x)


@wp.kernel
def lang_func_return_tuple(x: wp.array(dtype=float), k: wp.array(dtype=int), out: wp.array2d(dtype=float),
                           oi: wp.array2d(dtype=int)):
    i = wp.tid()
    lo, hi = minmax(x[i], 0.5)
    r, th = polar(hi - lo, float(i) - 2.0)
    t, u, v = split(k[i], x[i])
    out[i, 0] = lo
    out[i, 1] = hi
    out[i, 2] = r
    out[i, 3] = th
    out[i, 4] = v[1]
    a, b = minmax(v[0], v[1])
    out[i, 5] = b - a
    oi[i, 0] = t
    oi[i, 1] = u
