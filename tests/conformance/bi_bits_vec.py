# Bit operations on integer vectors of several scalar types (vec3i, vec4ui,
# vec2l, vec3ub): & | ^ ~ << >> componentwise, with a vector of shift
# counts, and the call forms.
# kern-test: bi_bits_vec --dim 12 a='rand(vec4i,12,seed=233)' o3='zeros(vec3i,12,4)' o4='zeros(vec4ui,12,3)' o2='zeros(vec2l,12,2)' ob='zeros(vec3ub,12,2)'
# kern-check: o3
# kern-check: o4
# kern-check: o2
# kern-check: ob
import warp as wp


@wp.kernel
def bi_bits_vec(a: wp.array(dtype=wp.vec4i), o3: wp.array2d(dtype=wp.vec3i), o4: wp.array2d(dtype=wp.vec4ui),
                o2: wp.array2d(dtype=wp.vec2l), ob: wp.array2d(dtype=wp.vec3ub)):
    i = wp.tid()
    x = a[i]
    v = wp.vec3i(x[0] * 1000 - 50000, x[1] - 50, x[2] * x[3])
    w = wp.vec3i(x[3], x[2] + 1, x[1] * 77)
    o3[i, 0] = (v & w) | (v ^ w)
    o3[i, 1] = ~v
    o3[i, 2] = v >> wp.vec3i(1, 2, 3)
    o3[i, 3] = wp.bit_xor(wp.lshift(w, wp.vec3i(4, 0, 2)), v)
    u = wp.vec4ui(wp.uint32(x[0]) * wp.uint32(40000000), wp.uint32(x[1]), wp.uint32(x[2]) << wp.uint32(24),
                  wp.uint32(x[3]) * wp.uint32(12345))
    s = wp.vec4ui(wp.uint32(3), wp.uint32(i % 8), wp.uint32(31), wp.uint32(1))
    o4[i, 0] = u >> s
    o4[i, 1] = (u << s) ^ ~u
    o4[i, 2] = wp.bit_and(u, wp.vec4ui(wp.uint32(0xFF00FF00))) | wp.rshift(u, wp.vec4ui(wp.uint32(16)))
    l = wp.vec2l(wp.int64(x[0] - 50) * wp.int64(1000000000000), wp.int64(x[1]) << wp.int64(40))
    o2[i, 0] = l >> wp.vec2l(wp.int64(7), wp.int64(41))
    o2[i, 1] = wp.invert(l) & wp.vec2l(wp.int64(0x7FFFFFFFFFFF), wp.int64(-1))
    b = wp.vec3ub(wp.uint8(x[0] * 3), wp.uint8(x[1] + 100), wp.uint8(x[2]))
    ob[i, 0] = ~b | (b << wp.vec3ub(wp.uint8(1)))
    ob[i, 1] = b ^ (b >> wp.vec3ub(wp.uint8(2), wp.uint8(3), wp.uint8(4)))
