# Constructors: wp.float64(x), wp.float32(x), float(x), int(x), wp.int64(x), wp.vec3(a, b, c)
# from variables, float vector from float var + int literals, wp.vec3i from int() of floats (truncates),
# wp.vec2d from float64 values, matrices from scalars and from rows.
# kern-test: constructors --dim 4 x='arange(float32,4)' od='zeros(float64,4)' ov='zeros(vec3,4,2)' oi='zeros(vec3i,4)' ovd='zeros(vec2d,4)' om='zeros(mat22,4)'
# kern-check: od
# kern-check: ov
# kern-check: oi
# kern-check: ovd
# kern-check: om
import warp as wp


@wp.kernel
def constructors(x: wp.array(dtype=wp.float32), od: wp.array(dtype=wp.float64), ov: wp.array2d(dtype=wp.vec3),
                 oi: wp.array(dtype=wp.vec3i), ovd: wp.array(dtype=wp.vec2d), om: wp.array(dtype=wp.mat22)):
    i = wp.tid()
    a = x[i] * 1.5 - 2.2
    od[i] = wp.float64(a) + wp.float64(int(a)) + wp.float64(wp.int64(i) * wp.int64(3))
    ov[i, 0] = wp.vec3(a, float(i), wp.float32(wp.float64(a) * wp.float64(2.0)))
    ov[i, 1] = wp.vec3(a, 2, 3)
    oi[i] = wp.vec3i(int(a), int(a * 2.0), -i)
    ovd[i] = wp.vec2d(wp.float64(a), wp.float64(0.5))
    om[i] = wp.matrix_from_rows(wp.vec2(a, 1.0), wp.vec2(0.0, a)) + wp.mat22(1.0, 2.0, 3.0, 4.0)
