# dot (vec2/3/4, float and int vectors, vec3d) and cross (vec3, vec3d).
# kern-test: vecmath_dot_cross --dim 6 a='rand(vec3,6,seed=30)' b='rand(vec3,6,seed=31)' c='arange(vec4,6)' ai='arange(vec3i,6)' od='zeros(float32,6,3)' oi='zeros(int32,6)' oc='zeros(vec3,6)' odd='zeros(float64,6)' ocd='zeros(vec3d,6)'
# kern-check: od
# kern-check: oi
# kern-check: oc
# kern-check: odd
# kern-check: ocd
import warp as wp


@wp.kernel
def vecmath_dot_cross(a: wp.array(dtype=wp.vec3), b: wp.array(dtype=wp.vec3), c: wp.array(dtype=wp.vec4),
                      ai: wp.array(dtype=wp.vec3i), od: wp.array2d(dtype=wp.float32), oi: wp.array(dtype=wp.int32),
                      oc: wp.array(dtype=wp.vec3), odd: wp.array(dtype=wp.float64), ocd: wp.array(dtype=wp.vec3d)):
    i = wp.tid()
    od[i, 0] = wp.dot(a[i], b[i])
    od[i, 1] = wp.dot(c[i], wp.vec4(1.0, -1.0, 0.5, 2.0))
    od[i, 2] = wp.dot(wp.vec2(a[i].x, a[i].y), wp.vec2(3.0, 4.0))
    oi[i] = wp.dot(ai[i], wp.vec3i(1, -2, 3))
    oc[i] = wp.cross(a[i], b[i])
    ad = wp.vec3d(wp.float64(a[i].x), wp.float64(a[i].y), wp.float64(a[i].z))
    bd = wp.vec3d(wp.float64(b[i].x), wp.float64(b[i].y), wp.float64(b[i].z))
    odd[i] = wp.dot(ad, bd)
    ocd[i] = wp.cross(ad, bd)
