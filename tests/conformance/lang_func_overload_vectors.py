# One @wp.func name overloaded by vector and matrix types: vec3, vec3d, vec3i, vec2,
# mat22 and mat33; each call resolves to the overload of its argument's type.
# kern-test: lang_func_overload_vectors --dim 4 v='rand(vec3,4,seed=931)' d='rand(vec3d,4,seed=932)' k='rand(vec3i,4,seed=933)' out='zeros(float64,4,6)'
# kern-check: out
import warp as wp


@wp.func
def norm1(v: wp.vec3) -> wp.float64:
    return wp.float64(wp.abs(v[0]) + wp.abs(v[1]) + wp.abs(v[2]))


@wp.func
def norm1(v: wp.vec3d) -> wp.float64:
    return wp.abs(v[0]) + wp.abs(v[1]) + wp.abs(v[2]) + wp.float64(1000.0)


@wp.func
def norm1(v: wp.vec3i) -> wp.float64:
    return wp.float64(wp.abs(v[0]) + wp.abs(v[1]) + wp.abs(v[2])) * wp.float64(-1.0)


@wp.func
def norm1(v: wp.vec2) -> wp.float64:
    return wp.float64(wp.abs(v[0]) + wp.abs(v[1])) + wp.float64(0.5)


@wp.func
def norm1(m: wp.mat22) -> wp.float64:
    return wp.float64(wp.abs(m[0, 0]) + wp.abs(m[1, 1]))


@wp.func
def norm1(m: wp.mat33) -> wp.float64:
    return wp.float64(wp.trace(m)) * wp.float64(2.0)


@wp.kernel
def lang_func_overload_vectors(v: wp.array(dtype=wp.vec3), d: wp.array(dtype=wp.vec3d), k: wp.array(dtype=wp.vec3i),
                               out: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    out[i, 0] = norm1(v[i])
    out[i, 1] = norm1(d[i])
    out[i, 2] = norm1(k[i] - wp.vec3i(50, 50, 50))
    out[i, 3] = norm1(wp.vec2(v[i][0], -v[i][1]))
    out[i, 4] = norm1(wp.mat22(v[i][0], 0.0, 0.0, -v[i][2]))
    out[i, 5] = norm1(wp.outer(v[i], v[i]))
