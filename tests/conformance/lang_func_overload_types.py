# One @wp.func name overloaded by parameter types: int32, int64, float32, float64, vec2,
# mat22 and a two-parameter form; each call picks the overload its argument types fit.
# kern-test: lang_func_overload_types --dim 4 x='rand(float,4,seed=221)' k='rand(int32,4,seed=222)' out='zeros(float64,4,7)'
# kern-check: out
import warp as wp


@wp.func
def weigh(x: int) -> wp.float64:
    return wp.float64(x * 3)


@wp.func
def weigh(x: wp.int64) -> wp.float64:
    return wp.float64(x * wp.int64(5))


@wp.func
def weigh(x: float) -> wp.float64:
    return wp.float64(x * 7.0)


@wp.func
def weigh(x: wp.float64) -> wp.float64:
    return x * wp.float64(11.0)


@wp.func
def weigh(v: wp.vec2) -> wp.float64:
    return wp.float64(v[0] * 13.0 + v[1])


@wp.func
def weigh(m: wp.mat22) -> wp.float64:
    return wp.float64(wp.determinant(m))


@wp.func
def weigh(a: int, b: float) -> wp.float64:
    return wp.float64(float(a) - b)


@wp.kernel
def lang_func_overload_types(x: wp.array(dtype=float), k: wp.array(dtype=int), out: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    out[i, 0] = weigh(k[i])
    out[i, 1] = weigh(wp.int64(k[i]))
    out[i, 2] = weigh(x[i])
    out[i, 3] = weigh(wp.float64(x[i]))
    out[i, 4] = weigh(wp.vec2(x[i], 2.0))
    out[i, 5] = weigh(wp.mat22(x[i], 1.0, 2.0, float(k[i])))
    out[i, 6] = weigh(k[i], x[i])
