# Keyword arguments to @wp.func: in any order, mixed with positional ones, skipping a
# defaulted parameter to give a later one, and keywords naming vector parameters.
# kern-test: lang_func_kwargs --dim 4 x='rand(float,4,seed=211)' v='rand(vec3,4,seed=212)' out='zeros(float,4,5)'
# kern-check: out
import warp as wp


@wp.func
def blend(a: float, b: float, t: float = 0.5, sharp: float = 1.0) -> float:
    w = wp.pow(t, sharp)
    return a * (1.0 - w) + b * w


@wp.func
def project(p: wp.vec3, axis: wp.vec3 = wp.vec3(0.0, 0.0, 1.0), scale: float = 1.0) -> float:
    return wp.dot(p, axis) * scale


@wp.kernel
def lang_func_kwargs(x: wp.array(dtype=float), v: wp.array(dtype=wp.vec3), out: wp.array2d(dtype=float)):
    i = wp.tid()
    a = x[i]
    out[i, 0] = blend(a, 2.0, sharp=2.0)
    out[i, 1] = blend(b=a, a=3.0, t=0.25)
    out[i, 2] = blend(a, b=1.0, sharp=3.0, t=a)
    out[i, 3] = project(v[i], scale=a)
    out[i, 4] = project(axis=wp.vec3(1.0, 0.0, 0.0), p=v[i])
