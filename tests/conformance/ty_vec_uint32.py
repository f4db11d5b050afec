# Unsigned 32-bit vectors (vec2ui, vec3ui, vec4ui): wraparound arithmetic,
# division and modulo (plain C), bit operations and logical shifts by vectors, dot.
# kern-test: ty_vec_uint32 --dim 10 a='rand(uint32,10,4,seed=155)' o='zeros(vec4ui,10,5)' s='zeros(uint32,10,2)'
# kern-check: o
# kern-check: s
import warp as wp


@wp.kernel
def ty_vec_uint32(a: wp.array2d(dtype=wp.uint32), o: wp.array2d(dtype=wp.vec4ui), s: wp.array2d(dtype=wp.uint32)):
    i = wp.tid()
    x = wp.vec4ui(a[i, 0], a[i, 1] * wp.uint32(100000), a[i, 2], a[i, 3] + wp.uint32(4000000000))
    y = wp.vec4ui(a[i, 3] + wp.uint32(1), a[i, 2] + wp.uint32(3), a[i, 1] + wp.uint32(1), wp.uint32(7))
    o[i, 0] = x - y * wp.uint32(3)
    o[i, 1] = x / wp.uint32(3) + wp.cw_div(x, y)
    o[i, 2] = x % y
    # Shift counts below 32: a larger one is undefined in C and differs by
    # target (x86 masks the count, CUDA's shr gives 0).
    o[i, 3] = (x << wp.vec4ui(wp.uint32(3))) ^ (x >> (y & wp.vec4ui(wp.uint32(31))))
    o[i, 4] = (x & y) | ~y
    s[i, 0] = wp.dot(x, y)
    s[i, 1] = wp.dot(wp.vec2ui(x[0], x[1]), wp.vec2ui(y[2], y[3])) + wp.vec3ui(x[1], x[2], x[3])[1]
