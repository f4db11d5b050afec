# @wp.func returning a @wp.struct built field by field, one returning a struct it was
# given after changing it (the caller's copy unchanged), and a struct result's fields
# read straight off the call.
# kern-test: lang_func_return_struct --dim 4 x='rand(float,4,seed=251)' v='rand(vec3,4,seed=252)' out='zeros(float,4,5)' ov='zeros(vec3,4)'
# kern-check: out
# kern-check: ov
import warp as wp


@wp.struct
class Ray:
    origin: wp.vec3
    dir: wp.vec3
    tmax: float
    hits: int


@wp.func
def make_ray(o: wp.vec3, d: wp.vec3, t: float) -> Ray:
    r = Ray()
    r.origin = o
    r.dir = wp.normalize(d)
    r.tmax = t
    r.hits = 0
    return r


@wp.func
def advance(r: Ray, t: float) -> Ray:
    r.origin = r.origin + r.dir * t
    r.tmax = r.tmax - t
    r.hits = r.hits + 1
    return r


@wp.kernel
def lang_func_return_struct(x: wp.array(dtype=float), v: wp.array(dtype=wp.vec3), out: wp.array2d(dtype=float),
                            ov: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    r = make_ray(v[i], wp.vec3(1.0, x[i], 2.0), 10.0)
    s = advance(advance(r, x[i]), 1.0)
    out[i, 0] = r.tmax
    out[i, 1] = s.tmax
    out[i, 2] = float(s.hits * 10 + r.hits)
    out[i, 3] = make_ray(v[i], v[i], x[i]).tmax
    out[i, 4] = advance(r, 2.0).origin[1]
    ov[i] = s.origin
