# wp.static() of constructors and mixed arithmetic: a static vector and matrix built
# from module-level values, wp.static of int and float constants combined with float(),
# and a static int used as a vector index.
# kern-test: lang_const_static_ctor --dim 4 v='rand(vec3,4,seed=1201)' ov='zeros(vec3,4)' out='zeros(float,4,3)'
# kern-check: ov
# kern-check: out
import warp as wp

N = 3
S = 0.5
AX = 2


@wp.kernel
def lang_const_static_ctor(v: wp.array(dtype=wp.vec3), ov: wp.array(dtype=wp.vec3), out: wp.array2d(dtype=float)):
    i = wp.tid()
    m = wp.static(wp.mat33(1.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 3.0))
    ov[i] = m * v[i] + wp.static(wp.vec3(1.0, 2.0, 3.0))
    out[i, 0] = v[i][wp.static(AX)] * wp.static(float(N) * S)
    out[i, 1] = wp.static(S * 4.0 - 1.0) + v[i][0]
    out[i, 2] = float(wp.static(N * N + AX)) * v[i][1]
