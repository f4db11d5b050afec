# @wp.func returning matrices (mat22, mat33, mat44d): built from parameters, returned
# from inside a loop-built accumulation, multiplied, transposed and indexed by the caller.
# kern-test: lang_func_return_mat --dim 4 x='rand(float,4,seed=241)' v='rand(vec3,4,seed=242)' o2='zeros(mat22,4)' o3='zeros(mat33,4)' od='zeros(float64,4)'
# kern-check: o2
# kern-check: o3
# kern-check: od
import warp as wp


@wp.func
def rot2(a: float) -> wp.mat22:
    c = wp.cos(a)
    s = wp.sin(a)
    return wp.mat22(c, -s, s, c)


@wp.func
def gram(v: wp.vec3, n: int) -> wp.mat33:
    m = wp.mat33()
    for k in range(n):
        m = m + wp.outer(v, v) * float(k + 1)
    return m


@wp.func
def scale4(s: wp.float64) -> wp.mat44d:
    return wp.diag(wp.vec4d(s, s * wp.float64(2.0), s * wp.float64(3.0), wp.float64(1.0)))


@wp.kernel
def lang_func_return_mat(x: wp.array(dtype=float), v: wp.array(dtype=wp.vec3), o2: wp.array(dtype=wp.mat22),
                         o3: wp.array(dtype=wp.mat33), od: wp.array(dtype=wp.float64)):
    i = wp.tid()
    o2[i] = rot2(x[i]) * wp.transpose(rot2(x[i] * 2.0))
    o3[i] = gram(v[i], i + 1)
    m = scale4(wp.float64(x[i]))
    od[i] = wp.determinant(m) + m[2, 2] + scale4(wp.float64(2.0))[1, 1]
