# Matrix rows assigned whole (m[k] = vec) in a loop, entries set with run-time indices
# (m[r, c] = x), rows read back as vectors, and matrices of float64 built row by row.
# kern-test: lang_mat_row_assign --dim 4 v='rand(vec3,4,seed=1121)' k='rand(int32,4,seed=1122)' om='zeros(mat33,4)' od='zeros(mat22d,4)' ov='zeros(vec3,4)'
# kern-check: om
# kern-check: od
# kern-check: ov
import warp as wp


@wp.kernel
def lang_mat_row_assign(v: wp.array(dtype=wp.vec3), k: wp.array(dtype=int), om: wp.array(dtype=wp.mat33),
                        od: wp.array(dtype=wp.mat22d), ov: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    m = wp.mat33()
    for r in range(3):
        m[r] = v[i] * float(r + 1)
    r = k[i] % 3
    c = (k[i] // 3) % 3
    m[r, c] = -1.0
    om[i] = m
    ov[i] = m[r] + m[(r + 1) % 3]
    d = wp.mat22d()
    d[0] = wp.vec2d(wp.float64(v[i][0]), wp.float64(1.0))
    d[1] = wp.vec2d(wp.float64(2.0), wp.float64(k[i]))
    od[i] = d * d
