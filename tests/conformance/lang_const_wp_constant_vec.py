# wp.constant of vectors (vec3, vec2i, vec4d) and of scalars (float, int, wp.float64),
# used with kernel values: arithmetic, indexing a constant vector, dot products.
# kern-test: lang_const_wp_constant_vec --dim 4 v='rand(vec3,4,seed=131)' out='zeros(vec3,4)' of='zeros(float,4,3)' od='zeros(float64,4)'
# kern-check: out
# kern-check: of
# kern-check: od
import warp as wp

UP = wp.constant(wp.vec3(0.0, 1.0, 0.0))
STEP = wp.constant(wp.vec2i(3, -2))
W4 = wp.constant(wp.vec4d(0.5, 0.25, 2.0, -1.0))
DT = wp.constant(0.01)
COUNT = wp.constant(7)
BIG = wp.constant(wp.float64(1.0e10))


@wp.kernel
def lang_const_wp_constant_vec(v: wp.array(dtype=wp.vec3), out: wp.array(dtype=wp.vec3),
                               of: wp.array2d(dtype=float), od: wp.array(dtype=wp.float64)):
    i = wp.tid()
    out[i] = v[i] + UP * DT * float(COUNT)
    of[i, 0] = wp.dot(v[i], UP)
    of[i, 1] = float(STEP[0] * i + STEP[1])
    of[i, 2] = wp.length(wp.cross(v[i], UP))
    w = wp.vec4d(wp.float64(v[i][0]), wp.float64(v[i][1]), wp.float64(v[i][2]), wp.float64(1.0))
    od[i] = wp.dot(w, W4) * BIG
