# vec4: .x .y .z .w, v[3], splat constructor wp.vec4(s), zero constructor wp.vec4().
# kern-test: vec4_basic --dim 6 a='arange(vec4,6)' out='zeros(vec4,6)' s='zeros(float32,6,3)'
# kern-check: out
# kern-check: s
import warp as wp


@wp.kernel
def vec4_basic(a: wp.array(dtype=wp.vec4), out: wp.array(dtype=wp.vec4), s: wp.array2d(dtype=wp.float32)):
    i = wp.tid()
    v = a[i]
    z = wp.vec4()
    o = wp.vec4(1.5)
    out[i] = wp.vec4(v.w, v.z, v.y, v.x) + o + z
    s[i, 0] = v.w * v[3]
    s[i, 1] = v[0] - v.y
    s[i, 2] = o.w + z[2]
