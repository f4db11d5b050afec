# Vector component access across types: .x/.y/.z/.w reads and writes on
# vec4d, vec3i, vec2ui and vec4h, negative and run-time indices, len() of
# each, and whole-vector comparison with == (all components equal).
# kern-test: ty_vec_components --dim 8 a='rand(vec4d,8,seed=273)' od='zeros(vec4d,8)' oi='zeros(vec3i,8)' ou='zeros(vec2ui,8)' oh='zeros(vec4h,8)' s='zeros(int32,8,4)'
# kern-check: od
# kern-check: oi
# kern-check: ou
# kern-check: oh
# kern-check: s
import warp as wp


@wp.kernel
def ty_vec_components(a: wp.array(dtype=wp.vec4d), od: wp.array(dtype=wp.vec4d), oi: wp.array(dtype=wp.vec3i),
                      ou: wp.array(dtype=wp.vec2ui), oh: wp.array(dtype=wp.vec4h), s: wp.array2d(dtype=int)):
    i = wp.tid()
    d = a[i]
    d.x = d.w * wp.float64(2.0)
    d[-2] = d.y + d[i % 4]
    od[i] = d
    v = wp.vec3i(i, i * 2, -i)
    v.z = v.x * 7 - v.y
    v[-1] = v[-1] + v[(i + 1) % 3]
    oi[i] = v
    u = wp.vec2ui(wp.uint32(i), wp.uint32(3000000000))
    u.y = u.y + u.x
    ou[i] = u
    h = wp.vec4h(wp.float16(d.x), wp.float16(d.y), wp.float16(d.z), wp.float16(d.w))
    h.w = h.x * h.y
    h[1] = -h.z
    oh[i] = h
    s[i, 0] = len(d) * 100 + len(v) * 10 + len(u)
    s[i, 1] = int(v == wp.vec3i(i, i * 2, v.z))
    s[i, 2] = int(u == wp.vec2ui(wp.uint32(0), wp.uint32(3000000000)))
    s[i, 3] = v.z
