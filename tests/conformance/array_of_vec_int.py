# Arrays of integer / double vectors.
# kern-test: array_of_vec_int --dim 5 a='arange(vec4i,5)' b='rand(vec2d,5,seed=18)' oi='zeros(vec4i,5)' od='zeros(vec2d,5)'
# kern-check: oi
# kern-check: od
import warp as wp


@wp.kernel
def array_of_vec_int(a: wp.array(dtype=wp.vec4i), b: wp.array(dtype=wp.vec2d),
                     oi: wp.array(dtype=wp.vec4i), od: wp.array(dtype=wp.vec2d)):
    i = wp.tid()
    v = a[i]
    oi[i] = wp.vec4i(v.w, v.z, v.y, v.x) * 2 - wp.vec4i(1, 1, 1, 1)
    od[i] = b[i] * wp.float64(3.0) + wp.vec2d(wp.float64(v.x), wp.float64(v.y))
