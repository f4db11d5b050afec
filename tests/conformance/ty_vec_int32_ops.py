# Integer vectors (vec2i, vec3i, vec4i): +, -, unary minus, * and / by an
# int32 scalar (division truncates), cw_mul, cw_div (truncating), %,
# wp.dot, wp.abs, wp.min/wp.max componentwise and reduced, wp.sign.
# kern-test: ty_vec_int32_ops --dim 10 a='rand(vec4i,10,seed=151)' b='rand(vec4i,10,seed=152)' o4='zeros(vec4i,10,6)' o3='zeros(vec3i,10,2)' o2='zeros(vec2i,10,2)' s='zeros(int32,10,4)'
# kern-check: o4
# kern-check: o3
# kern-check: o2
# kern-check: s
import warp as wp


@wp.kernel
def ty_vec_int32_ops(a: wp.array(dtype=wp.vec4i), b: wp.array(dtype=wp.vec4i), o4: wp.array2d(dtype=wp.vec4i),
                     o3: wp.array2d(dtype=wp.vec3i), o2: wp.array2d(dtype=wp.vec2i), s: wp.array2d(dtype=int)):
    i = wp.tid()
    x = a[i] - wp.vec4i(50, 40, 30, 20)
    y = b[i] + wp.vec4i(1, 1, 1, 1)
    o4[i, 0] = x + y - (-y) * 2
    o4[i, 1] = x * 3 / 4
    o4[i, 2] = wp.cw_mul(x, y)
    o4[i, 3] = wp.cw_div(x, y) + x % y
    o4[i, 4] = wp.abs(x) + wp.sign(x)
    o4[i, 5] = wp.min(x, y) - wp.max(x, y)
    x3 = wp.vec3i(x[0], x[1], x[2])
    y3 = wp.vec3i(y[3], y[2], y[1])
    o3[i, 0] = x3 * 7 - y3
    o3[i, 1] = wp.cross(x3, y3)
    x2 = wp.vec2i(x[3], y[0])
    o2[i, 0] = x2 / 3
    o2[i, 1] = -x2 + wp.vec2i(i, -i)
    s[i, 0] = wp.dot(x, y)
    s[i, 1] = wp.min(x) + wp.max(y) * 1000
    s[i, 2] = wp.dot(x3, y3) - wp.dot(x2, x2)
    s[i, 3] = int(wp.argmax(x)) * 10 + int(wp.argmin(y))
