# vec2i/vec3i/vec4i: integer vectors; `/` on int vectors truncates (C).
# kern-test: vec_int_variants --dim 5 a='arange(vec3i,5)' p=7,-7 o2='zeros(vec2i,5)' o3='zeros(vec3i,5)' o4='zeros(vec4i,5)'
# kern-check: o2
# kern-check: o3
# kern-check: o4
import warp as wp


@wp.kernel
def vec_int_variants(a: wp.array(dtype=wp.vec3i), p: wp.vec2i,
                     o2: wp.array(dtype=wp.vec2i), o3: wp.array(dtype=wp.vec3i),
                     o4: wp.array(dtype=wp.vec4i)):
    i = wp.tid()
    v = a[i] - wp.vec3i(6, 6, 6)
    o3[i] = v * 3 + wp.vec3i(1, 2, 3)
    o2[i] = p / (i + 1)
    o4[i] = wp.vec4i(v.x, v.y, v.z, -v[0]) / 4
