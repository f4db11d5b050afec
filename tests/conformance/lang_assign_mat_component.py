# Augmented assignment on matrix entries and rows of locals: m[0, 1] += a, m[1][0] -=
# b, m[i, j] *= c with run-time indices, a row m[2] += v, and whole-matrix ops.
# kern-test: lang_assign_mat_component --dim 4 x='rand(float,4,seed=611)' k='rand(int32,4,seed=612)' om='zeros(mat33,4)' od='zeros(mat22d,4)'
# kern-check: om
# kern-check: od
import warp as wp


@wp.kernel
def lang_assign_mat_component(x: wp.array(dtype=float), k: wp.array(dtype=int), om: wp.array(dtype=wp.mat33),
                              od: wp.array(dtype=wp.mat22d)):
    i = wp.tid()
    m = wp.identity(n=3, dtype=float)
    m[0, 1] += x[i]
    m[1, 0] -= x[i] * 3.0
    r = k[i] % 3
    c = (k[i] // 3) % 3
    m[r, c] *= 5.0
    m[2] += wp.vec3(1.0, x[i], 2.0)
    m *= 2.0
    m += wp.mat33(1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, x[i])
    om[i] = m
    d = wp.mat22d(wp.float64(1.0), wp.float64(2.0), wp.float64(3.0), wp.float64(4.0))
    d[1, 1] /= wp.float64(x[i] + 1.0)
    d[0] -= wp.vec2d(wp.float64(0.5), wp.float64(i))
    od[i] = d
