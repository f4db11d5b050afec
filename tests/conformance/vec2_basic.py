# vec2: constructor, .x .y, v[0], arithmetic with scalars, negation, array of vec2 in and out.
# kern-test: vec2_basic --dim 8 a='arange(vec2,8)' out='zeros(vec2,8)' s='zeros(float32,8,3)'
# kern-check: out
# kern-check: s
import warp as wp


@wp.kernel
def vec2_basic(a: wp.array(dtype=wp.vec2), out: wp.array(dtype=wp.vec2), s: wp.array2d(dtype=wp.float32)):
    i = wp.tid()
    v = a[i]
    w = wp.vec2(v.y, -v.x) * 2.0 + wp.vec2(1.0, 0.5)
    out[i] = -w / 4.0 + 0.5 * v
    s[i, 0] = v.x + v[1]
    s[i, 1] = w[0] * w.y
    s[i, 2] = (v - w)[1]
