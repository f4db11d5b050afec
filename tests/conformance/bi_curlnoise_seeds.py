# wp.curlnoise in 2, 3 and 4 dimensions with several seeds, octave
# counts, lacunarity and gain.
# kern-test: bi_curlnoise_seeds --dim 12 p='rand(vec4,12,seed=243)' o2='zeros(vec2,12,2)' o3='zeros(vec3,12,4)'
# kern-check: o2
# kern-check: o3
import warp as wp


@wp.kernel
def bi_curlnoise_seeds(p: wp.array(dtype=wp.vec4), o2: wp.array2d(dtype=wp.vec2), o3: wp.array2d(dtype=wp.vec3)):
    i = wp.tid()
    x = (p[i] - wp.vec4(0.5, 0.5, 0.5, 0.5)) * 8.0
    s = wp.rand_init(1000 + i)
    o2[i, 0] = wp.curlnoise(s, wp.vec2(x[0], x[1]))
    o2[i, 1] = wp.curlnoise(wp.rand_init(3, i), wp.vec2(x[2], x[3]), wp.uint32(3), 2.0, 0.5)
    o3[i, 0] = wp.curlnoise(s, wp.vec3(x[0], x[1], x[2]))
    o3[i, 1] = wp.curlnoise(wp.rand_init(77), wp.vec3(x[1], x[2], x[3]), wp.uint32(2), 1.5, 0.6)
    o3[i, 2] = wp.curlnoise(s, x)
    o3[i, 3] = wp.curlnoise(wp.rand_init(i * 13), x, wp.uint32(4), 2.5, 0.4)
