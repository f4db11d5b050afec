# Warp's named constants given to float64 (and float16) constructors keep
# their full precision, as literals do: wp.PI, -wp.E, wp.TAU are Python
# floats to Warp, converted to the component type, not rounded to float32
# first.
# kern-test: vec_named_float64 --dim 1 r='zeros(float64,8)' h='zeros(float16,2)'
# kern-check: r
# kern-check: h
import warp as wp


@wp.kernel
def vec_named_float64(r: wp.array(dtype=wp.float64), h: wp.array(dtype=wp.float16)):
    v = wp.vec3d(wp.PI, -wp.E, wp.TAU)
    w = wp.vec4d(wp.LN2, -(-wp.LOG10E), 0.1, wp.HALF_PI)
    m = wp.mat22d(wp.PI, 0.2, wp.PHI, wp.E)
    r[0] = v[0]
    r[1] = v[1]
    r[2] = v[2]
    r[3] = w[0]
    r[4] = w[1] + w[2]
    r[5] = w[3]
    r[6] = m[0, 1] * m[1, 0]
    r[7] = m[0, 0] - m[1, 1]
    g = wp.vec2h(wp.PI, -wp.E)
    h[0] = g[0]
    h[1] = g[1]
