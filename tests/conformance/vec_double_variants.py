# vec2d/vec3d/vec4d: float64 vectors in arrays and by value.
# kern-test: vec_double_variants --dim 4 a='arange(vec3d,4)' p=0.5,0.25 q=1,2,3,4 o2='zeros(vec2d,4)' o3='zeros(vec3d,4)' o4='zeros(vec4d,4)'
# kern-check: o2
# kern-check: o3
# kern-check: o4
import warp as wp


@wp.kernel
def vec_double_variants(a: wp.array(dtype=wp.vec3d), p: wp.vec2d, q: wp.vec4d,
                        o2: wp.array(dtype=wp.vec2d), o3: wp.array(dtype=wp.vec3d),
                        o4: wp.array(dtype=wp.vec4d)):
    i = wp.tid()
    v = a[i]
    third = wp.float64(1.0) / wp.float64(3.0)
    o3[i] = v * third + wp.vec3d(wp.float64(0.1), wp.float64(0.2), wp.float64(0.3))
    o2[i] = wp.vec2d(v.x, v.z) + p
    o4[i] = q * v.y - wp.vec4d(v[0], v[1], v[2], third)
