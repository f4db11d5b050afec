# The scalar builtins Warp also applies to vectors, componentwise: abs,
# sign, min, max, mod (and %) on vec3, vec4d and vec2i, with negative
# components (Warp has no vector floor, ceil, round, trunc or frac).
# kern-test: bi_math_vec_componentwise --dim 12 a='rand(vec4d,12,seed=291)' o3='zeros(vec3,12,3)' o4='zeros(vec4d,12,3)' o2='zeros(vec2i,12,3)'
# kern-check: o3
# kern-check: o4
# kern-check: o2
import warp as wp


@wp.kernel
def bi_math_vec_componentwise(a: wp.array(dtype=wp.vec4d), o3: wp.array2d(dtype=wp.vec3), o4: wp.array2d(dtype=wp.vec4d),
                              o2: wp.array2d(dtype=wp.vec2i)):
    i = wp.tid()
    h = wp.float64(0.5)
    d = (a[i] - wp.vec4d(h, h, h, h)) * wp.float64(7.0)
    v = wp.vec3(float(d[0]), float(d[1]), float(d[2]))
    o3[i, 0] = wp.abs(v) + wp.sign(v)
    o3[i, 1] = wp.mod(v, wp.vec3(1.5, -2.0, 0.75))
    o3[i, 2] = wp.min(v, -v) + wp.max(v, wp.vec3(0.5))
    o4[i, 0] = wp.abs(d) - wp.sign(d)
    o4[i, 1] = wp.mod(d, wp.vec4d(wp.float64(-1.5))) + d % wp.vec4d(wp.float64(2.5))
    o4[i, 2] = wp.min(d, wp.vec4d(h)) + wp.max(d, -d)
    n = wp.vec2i(int(d[0] * wp.float64(10.0)), int(d[3] * wp.float64(10.0)))
    o2[i, 0] = wp.abs(n) + wp.sign(n)
    o2[i, 1] = wp.mod(n, wp.vec2i(7, -3)) + n % wp.vec2i(-4, 5)
    o2[i, 2] = wp.min(n, wp.vec2i(3, -3)) * 100 + wp.max(n, wp.vec2i(0, 0))
