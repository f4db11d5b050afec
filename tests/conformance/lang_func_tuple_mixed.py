# @wp.func returning a tuple of a vector, a matrix, a float and an int, unpacked by
# the caller, with the parts fed to another multi-result function.
# kern-test: lang_func_tuple_mixed --dim 4 v='rand(vec3,4,seed=1011)' ov='zeros(vec3,4)' om='zeros(mat33,4)' out='zeros(float,4,3)'
# kern-check: ov
# kern-check: om
# kern-check: out
import warp as wp


@wp.func
def frame(v: wp.vec3):
    n = wp.normalize(v)
    m = wp.outer(n, n)
    return n, m, wp.length(v), int(v[0] * 10.0)


@wp.func
def apply(m: wp.mat33, v: wp.vec3, s: float):
    w = m * v * s
    return w, wp.dot(w, v)


@wp.kernel
def lang_func_tuple_mixed(v: wp.array(dtype=wp.vec3), ov: wp.array(dtype=wp.vec3), om: wp.array(dtype=wp.mat33),
                          out: wp.array2d(dtype=float)):
    i = wp.tid()
    n, m, l, k = frame(v[i])
    w, d = apply(m, v[i] + wp.vec3(1.0, 0.0, 0.0), l)
    ov[i] = w + n
    om[i] = m * float(k + 1)
    out[i, 0] = l
    out[i, 1] = float(k)
    out[i, 2] = d
