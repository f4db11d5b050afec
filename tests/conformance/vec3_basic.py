# vec3: constructor, .x .y .z, v[k], component assignment, + - * / with scalars and vectors.
# kern-test: vec3_basic --dim 8 a='arange(vec3,8)' b='rand(vec3,8,seed=12)' out='zeros(vec3,8)' s='zeros(float32,8,4)'
# kern-check: out
# kern-check: s
import warp as wp


@wp.kernel
def vec3_basic(a: wp.array(dtype=wp.vec3), b: wp.array(dtype=wp.vec3), out: wp.array(dtype=wp.vec3),
               s: wp.array2d(dtype=wp.float32)):
    i = wp.tid()
    v = a[i]
    u = b[i]
    w = v + u * 3.0 - wp.vec3(1.0, 2.0, 3.0)
    w.y = w.y + 10.0
    w[2] = w[2] * 2.0
    out[i] = w
    s[i, 0] = v.x + v.y + v.z
    s[i, 1] = u[0] - u[1] * u[2]
    s[i, 2] = (v / 2.0).z
    s[i, 3] = (+u).x
