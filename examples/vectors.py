# wp.vec3: dot, cross, length and normalize on arrays of vectors.
# kern-test: vectors --dim 100 a='rand(vec3,100,seed=7)' b='rand(vec3,100,seed=8)' d='zeros(float32,100)' c='zeros(vec3,100)' n='zeros(vec3,100)' s='zeros(vec3,100)'
# why: float32 products and sqrt; results are of order 1
# kern-check: d rtol=1e-5 atol=1e-6
# kern-check: c rtol=1e-5 atol=1e-6
# kern-check: n rtol=1e-5 atol=1e-6
# kern-check: s rtol=1e-5 atol=1e-6
import warp as wp


@wp.kernel
def vectors(a: wp.array(dtype=wp.vec3), b: wp.array(dtype=wp.vec3), d: wp.array(dtype=wp.float32),
            c: wp.array(dtype=wp.vec3), n: wp.array(dtype=wp.vec3), s: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    u = a[i] - wp.vec3(0.5, 0.5, 0.5)
    v = b[i]
    d[i] = wp.dot(u, v)
    c[i] = wp.cross(u, v)
    n[i] = wp.normalize(v)
    s[i] = u * 2.0 + v * wp.length(u) + wp.vec3(v.z, v.y, v.x)
