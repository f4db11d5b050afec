# wp.static(expr) of arithmetic on module-level values: float and int expressions,
# a static loop bound, a static comparison choosing a branch at compile time, and a
# static value of a wp.constant vector; comparisons, chains, and, not in wp.static.
# kern-test: lang_const_static --dim 4 x='rand(float,4,seed=161)' out='zeros(float,4,5)'
# kern-check: out
import warp as wp

N = 3
H = 0.25
AXIS = wp.constant(wp.vec3(1.0, 2.0, 2.0))


@wp.kernel
def lang_const_static(x: wp.array(dtype=float), out: wp.array2d(dtype=float)):
    i = wp.tid()
    s = float(0.0)
    for k in range(wp.static(N * 2 - 1)):
        s += x[i] * float(k)
    out[i, 0] = s
    out[i, 1] = x[i] * wp.static(H * float(N) + 1.0)
    if wp.static(N > 2 and not H > 1.0 and 0 < N <= 3):
        out[i, 2] = x[i] + 1.0
    else:
        out[i, 2] = x[i] - 1.0
    out[i, 3] = float(wp.static((N + 1) * (N - 1) // 3)) - x[i]
    out[i, 4] = wp.dot(wp.static(AXIS), wp.vec3(x[i], 1.0, -x[i]))
