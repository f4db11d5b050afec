# float16 vectors of length 2 and 4 (vec2h, vec4h): arithmetic rounded after
# every operation, scalar products, dot, length, normalize, cw_mul, min/max,
# lerp, componentwise abs, and conversion to and from vec4 (float32).
# kern-test: ty_half_vec4h --dim 12 a='rand(vec4h,12,seed=171)' b='rand(vec4,12,seed=172)' oh='zeros(vec4h,12,5)' o2='zeros(vec2h,12,2)' s='zeros(float16,12,4)'
# kern-check: oh
# kern-check: o2
# kern-check: s
import warp as wp


@wp.kernel
def ty_half_vec4h(a: wp.array(dtype=wp.vec4h), b: wp.array(dtype=wp.vec4), oh: wp.array2d(dtype=wp.vec4h),
                  o2: wp.array2d(dtype=wp.vec2h), s: wp.array2d(dtype=wp.float16)):
    i = wp.tid()
    x = a[i] * wp.float16(5.0) - wp.vec4h(wp.float16(2.0))
    y = wp.vec4h(b[i]) + wp.vec4h(wp.float16(0.125))
    oh[i, 0] = x + y * wp.float16(3.0)
    oh[i, 1] = wp.cw_mul(x, y) - x / wp.float16(7.0)
    oh[i, 2] = wp.normalize(x)
    oh[i, 3] = wp.lerp(x, y, wp.float16(0.3)) + wp.abs(x)
    oh[i, 4] = wp.min(x, y) + wp.max(x, -y)
    x2 = wp.vec2h(x[0], y[1])
    o2[i, 0] = x2 * wp.float16(1.5) - wp.vec2h(y[2], x[3])
    o2[i, 1] = wp.vec2h(wp.vec2(b[i][0], b[i][3]) * 1000.0)
    s[i, 0] = wp.dot(x, y)
    s[i, 1] = wp.length(x)
    s[i, 2] = wp.length_sq(y) + wp.dot(x2, x2)
    s[i, 3] = wp.float16(wp.vec4(x)[1] * 0.1)
