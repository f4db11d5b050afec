# Reductions of vectors of several scalar types: wp.min and wp.max of one
# vector, wp.argmin and wp.argmax (first of equal values), on vec4l,
# vec3d, vec4ub and vec2h, and componentwise min/max of two.
# kern-test: ty_vec_reduce_types --dim 12 a='rand(int32,12,4,seed=285)' o='zeros(int64,12,8)' od='zeros(float64,12,4)'
# kern-check: o
# kern-check: od
import warp as wp


@wp.kernel
def ty_vec_reduce_types(a: wp.array2d(dtype=int), o: wp.array2d(dtype=wp.int64), od: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    l = wp.vec4l(wp.int64(a[i, 0] - 50) * wp.int64(10000000000), wp.int64(a[i, 1]), wp.int64(a[i, 2] % 4), wp.int64(a[i, 3] % 4))
    o[i, 0] = wp.min(l)
    o[i, 1] = wp.max(l)
    o[i, 2] = wp.int64(wp.argmin(l)) * wp.int64(10) + wp.int64(wp.argmax(l))
    u = wp.vec4ub(wp.uint8(a[i, 0] % 3), wp.uint8(a[i, 1] % 3), wp.uint8(a[i, 2] % 3), wp.uint8(a[i, 3] % 3))
    o[i, 3] = wp.int64(wp.min(u)) * wp.int64(10) + wp.int64(wp.max(u))
    o[i, 4] = wp.int64(wp.argmin(u)) * wp.int64(10) + wp.int64(wp.argmax(u))
    h = wp.vec2h(wp.float16(float(a[i, 0]) * 0.1), wp.float16(float(a[i, 1]) * 0.1))
    o[i, 5] = wp.int64(wp.argmax(h))
    o[i, 6] = wp.int64(wp.max(h) * wp.float16(10.0))
    o[i, 7] = wp.max(l, wp.vec4l(wp.int64(5)))[2]
    d = wp.vec3d(wp.float64(a[i, 0]) * wp.float64(0.3), wp.float64(a[i, 1] % 5), wp.float64(a[i, 2] % 5))
    od[i, 0] = wp.min(d)
    od[i, 1] = wp.max(d)
    od[i, 2] = wp.float64(wp.argmin(d)) + wp.float64(wp.argmax(d)) * wp.float64(10.0)
    od[i, 3] = wp.min(d, wp.vec3d(wp.float64(2.0)))[0]
