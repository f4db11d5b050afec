# Vector slices with constant bounds: v[1:3], v[:2], v[::2], v[::-1], v[1:], of vec4,
# vec3d and vec4i values from arrays; len() of the slices; a slice passed to dot.
# kern-test: lang_vec_slice --dim 4 v='rand(vec4,4,seed=451)' d='rand(vec3d,4,seed=452)' k='rand(vec4i,4,seed=453)' out='zeros(float,4,8)' ov='zeros(vec2,4)' od='zeros(vec3d,4)' oi='zeros(vec2i,4)'
# kern-check: out
# kern-check: ov
# kern-check: od
# kern-check: oi
import warp as wp


@wp.kernel
def lang_vec_slice(v: wp.array(dtype=wp.vec4), d: wp.array(dtype=wp.vec3d), k: wp.array(dtype=wp.vec4i),
                   out: wp.array2d(dtype=float), ov: wp.array(dtype=wp.vec2), od: wp.array(dtype=wp.vec3d),
                   oi: wp.array(dtype=wp.vec2i)):
    i = wp.tid()
    a = v[i]
    mid = a[1:3]
    head = a[:2]
    ev = a[::2]
    rv = a[::-1]
    tl = a[1:]
    out[i, 0] = float(len(mid) * 100 + len(tl) * 10 + len(rv))
    out[i, 1] = wp.dot(mid, head)
    out[i, 2] = ev[0] - ev[1]
    out[i, 3] = rv[0] - a[3]
    out[i, 4] = wp.length(tl)
    out[i, 5] = wp.dot(a[2:], ev)
    rm = rv[1:3]
    out[i, 6] = rm[0]
    out[i, 7] = float(len(a[::3]))
    ov[i] = mid + ev
    od[i] = d[i][::-1] * wp.float64(2.0)
    oi[i] = k[i][1:3] - k[i][::3]
