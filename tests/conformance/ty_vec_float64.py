# float64 vectors of every length (vec2d, vec3d, vec4d): arithmetic, dot,
# cross, length, length_sq, normalize, cw_mul/cw_div, min/max reductions,
# vector % vector (fmod), lerp and scalar division.
# kern-test: ty_vec_float64 --dim 10 a='rand(vec4d,10,seed=156)' b='rand(vec4d,10,seed=157)' o4='zeros(vec4d,10,4)' o3='zeros(vec3d,10,3)' o2='zeros(vec2d,10,2)' s='zeros(float64,10,6)'
# kern-check: o4
# kern-check: o3
# kern-check: o2
# kern-check: s
import warp as wp


@wp.kernel
def ty_vec_float64(a: wp.array(dtype=wp.vec4d), b: wp.array(dtype=wp.vec4d), o4: wp.array2d(dtype=wp.vec4d),
                   o3: wp.array2d(dtype=wp.vec3d), o2: wp.array2d(dtype=wp.vec2d), s: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    h = wp.float64(0.5)
    x = a[i] - wp.vec4d(h, h, h, h)
    y = b[i] * wp.float64(3.0) + wp.vec4d(wp.float64(0.1))
    o4[i, 0] = x * wp.float64(2.0) - y / wp.float64(3.0)
    o4[i, 1] = wp.cw_mul(x, y) + wp.cw_div(x, y)
    o4[i, 2] = wp.normalize(x) + x % y
    o4[i, 3] = wp.lerp(x, y, wp.float64(0.3))
    x3 = wp.vec3d(x[0], x[1], x[2])
    y3 = wp.vec3d(y[1], y[2], y[3])
    o3[i, 0] = wp.cross(x3, y3)
    o3[i, 1] = wp.normalize(y3) * wp.length(x3)
    o3[i, 2] = -x3 + wp.min(x3, y3)
    x2 = wp.vec2d(x[3], y[0])
    o2[i, 0] = x2 / wp.length(x2)
    o2[i, 1] = wp.max(x2, wp.vec2d(y[3], x[1]))
    s[i, 0] = wp.dot(x, y)
    s[i, 1] = wp.length(x)
    s[i, 2] = wp.length_sq(y3)
    s[i, 3] = wp.min(x) + wp.max(y)
    s[i, 4] = wp.dot(x2, x2)
    s[i, 5] = wp.length(wp.cross(x3, y3))
