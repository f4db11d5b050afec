# Arrays of vectors: whole-element reads/writes, component reads a[i][k] and a[i].x,
# component writes a[i][k] = ..., 2-d array of vec2.
# kern-test: array_of_vec --dim 6 a='arange(vec3,6)' g='rand(vec2,6,2,seed=17)' out='zeros(vec3,6)' og='zeros(vec2,6,2)' s='zeros(float32,6)'
# kern-check: out
# kern-check: og
# kern-check: s
import warp as wp


@wp.kernel
def array_of_vec(a: wp.array(dtype=wp.vec3), g: wp.array2d(dtype=wp.vec2), out: wp.array(dtype=wp.vec3),
                 og: wp.array2d(dtype=wp.vec2), s: wp.array(dtype=wp.float32)):
    i = wp.tid()
    out[i] = a[i] * 2.0
    out[i][1] = a[i].x * a[i][2] + 100.0
    og[i, 0] = g[i, 1]
    og[i, 1] = g[i, 0] + wp.vec2(a[i].y, 1.0)
    s[i] = g[i, 0].x + g[i, 1][1]
