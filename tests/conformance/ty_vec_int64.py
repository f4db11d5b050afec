# 64-bit integer vectors (vec2l, vec3l, vec4l and the unsigned vec3ul):
# construction from int64 values, arithmetic past the int32 range, scalar
# products, dot, componentwise min/max, unsigned wraparound on subtraction.
# kern-test: ty_vec_int64 --dim 8 a='rand(int64,8,4,seed=153)' ol='zeros(vec4l,8,3)' ou='zeros(vec3ul,8,2)' s='zeros(int64,8,3)'
# kern-check: ol
# kern-check: ou
# kern-check: s
import warp as wp


@wp.kernel
def ty_vec_int64(a: wp.array2d(dtype=wp.int64), ol: wp.array2d(dtype=wp.vec4l), ou: wp.array2d(dtype=wp.vec3ul),
                 s: wp.array2d(dtype=wp.int64)):
    i = wp.tid()
    big = wp.int64(3000000000)
    x = wp.vec4l(a[i, 0] * big, a[i, 1] - wp.int64(50), a[i, 2] * a[i, 3], -a[i, 3] * big)
    y = wp.vec4l(a[i, 3], a[i, 2] + wp.int64(1), a[i, 1], a[i, 0] - wp.int64(20))
    ol[i, 0] = x + y * wp.int64(1000000007)
    ol[i, 1] = wp.max(x, y) - wp.min(x, y)
    ol[i, 2] = x / wp.int64(7)
    u = wp.vec3ul(wp.uint64(a[i, 0]), wp.uint64(a[i, 1]), wp.uint64(a[i, 2]))
    v = wp.vec3ul(wp.uint64(a[i, 3]), wp.uint64(5), wp.uint64(18446744073709551615))
    ou[i, 0] = u - v
    ou[i, 1] = u * wp.uint64(6000000000) + v
    s[i, 0] = wp.dot(x, y)
    s[i, 1] = wp.dot(wp.vec2l(x[0], x[3]), wp.vec2l(y[1], y[2]))
    s[i, 2] = wp.vec3l(x[0], x[1], x[2])[2] + wp.max(x)
