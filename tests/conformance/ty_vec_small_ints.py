# Vectors of 8- and 16-bit integers (vec3b, vec4ub, vec2s, vec3us): built
# from wider values (truncated), +, -, * with wraparound, componentwise
# min/max, and stored in arrays of those types.
# kern-test: ty_vec_small_ints --dim 10 a='rand(int32,10,4,seed=154)' ob='zeros(vec3b,10,2)' oub='zeros(vec4ub,10,2)' os='zeros(vec2s,10,2)' ous='zeros(vec3us,10,2)'
# kern-check: ob
# kern-check: oub
# kern-check: os
# kern-check: ous
import warp as wp


@wp.kernel
def ty_vec_small_ints(a: wp.array2d(dtype=int), ob: wp.array2d(dtype=wp.vec3b), oub: wp.array2d(dtype=wp.vec4ub),
                      os: wp.array2d(dtype=wp.vec2s), ous: wp.array2d(dtype=wp.vec3us)):
    i = wp.tid()
    b = wp.vec3b(wp.int8(a[i, 0]), wp.int8(a[i, 1] - 50), wp.int8(a[i, 2] + 60))
    ob[i, 0] = b * wp.int8(3)
    ob[i, 1] = b + b - wp.vec3b(wp.int8(100), wp.int8(-100), wp.int8(7))
    u = wp.vec4ub(wp.uint8(a[i, 0]), wp.uint8(a[i, 1] * 3), wp.uint8(a[i, 2] + 200), wp.uint8(a[i, 3]))
    oub[i, 0] = u * wp.uint8(5)
    oub[i, 1] = wp.max(u, wp.vec4ub(wp.uint8(50))) - wp.vec4ub(wp.uint8(60))
    s = wp.vec2s(wp.int16(a[i, 0] * 400), wp.int16(a[i, 1] - a[i, 2] * 300))
    os[i, 0] = s * wp.int16(3)
    os[i, 1] = wp.min(s, -s)
    us = wp.vec3us(wp.uint16(a[i, 0] * 1000), wp.uint16(a[i, 3]), wp.uint16(65535))
    ous[i, 0] = us + us
    ous[i, 1] = us - wp.vec3us(wp.uint16(a[i, 2]), wp.uint16(a[i, 1]), wp.uint16(1))
