# @wp.func returning vectors of several kinds (vec3, vec4d, vec2i), the result used
# directly in expressions: indexed, a component read, passed to another function.
# kern-test: lang_func_return_vec --dim 5 v='rand(vec3,5,seed=231)' k='rand(int32,5,seed=232)' ov='zeros(vec3,5)' od='zeros(vec4d,5)' oi='zeros(vec2i,5)' of='zeros(float,5)'
# kern-check: ov
# kern-check: od
# kern-check: oi
# kern-check: of
import warp as wp


@wp.func
def reflect(d: wp.vec3, n: wp.vec3) -> wp.vec3:
    return d - n * (2.0 * wp.dot(d, n))


@wp.func
def widen(v: wp.vec3, w: float) -> wp.vec4d:
    return wp.vec4d(wp.float64(v[0]), wp.float64(v[1]), wp.float64(v[2]), wp.float64(w))


@wp.func
def divmod2(a: int, b: int) -> wp.vec2i:
    return wp.vec2i(a // b, a % b)


@wp.kernel
def lang_func_return_vec(v: wp.array(dtype=wp.vec3), k: wp.array(dtype=int), ov: wp.array(dtype=wp.vec3),
                         od: wp.array(dtype=wp.vec4d), oi: wp.array(dtype=wp.vec2i), of: wp.array(dtype=float)):
    i = wp.tid()
    n = wp.normalize(wp.vec3(1.0, 2.0, float(i)))
    ov[i] = reflect(reflect(v[i], n), wp.vec3(0.0, 1.0, 0.0))
    od[i] = widen(v[i], float(k[i])) * wp.float64(0.5)
    oi[i] = divmod2(k[i] - 50, 7)
    of[i] = reflect(v[i], n)[1] + float(divmod2(k[i], 3)[0])
