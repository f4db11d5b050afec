# Vector components by name (.x .y .z .w) read and written on locals, read on array
# elements (a[i].x), and on a function's result; quaternion-free vec4 and vec2d.
# kern-test: lang_vec_component_names --dim 4 a='rand(vec4,4,seed=1111)' d='rand(vec2d,4,seed=1112)' ov='zeros(vec4,4)' out='zeros(float64,4,3)'
# kern-check: ov
# kern-check: out
import warp as wp


@wp.func
def swizzle(v: wp.vec4) -> wp.vec4:
    return wp.vec4(v.w, v.z, v.y, v.x)


@wp.kernel
def lang_vec_component_names(a: wp.array(dtype=wp.vec4), d: wp.array(dtype=wp.vec2d), ov: wp.array(dtype=wp.vec4),
                             out: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    v = a[i]
    v.x = v.y + v.z
    v.w = -a[i].x
    v.y += 1.0
    v.z *= float(i)
    ov[i] = v
    out[i, 0] = wp.float64(swizzle(a[i]).x - a[i].w)
    out[i, 1] = d[i].x * d[i].y
    e = d[i]
    e.y = e.x * wp.float64(2.0)
    out[i, 2] = e.y + wp.float64(v.x)
