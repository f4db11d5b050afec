# Perlin noise as Warp's noise.h computes it (emit/extra.c Note [Perlin
# noise]): wp.noise in 1 to 4 dimensions, wp.pnoise with periods (negative
# positions wrap with C's remainder, as Warp's mod), wp.curlnoise in 2, 3 and 4
# dimensions with default and given octaves, lacunarity and gain.
# kern-test: builtin_noise --dim 24 seed=42 p='rand(vec4,24,seed=5)' on='zeros(float32,24,8)' oc='zeros(vec3,24,4)' oc2='zeros(vec2,24,2)'
# kern-check: on
# kern-check: oc
# kern-check: oc2
import warp as wp


@wp.kernel
def builtin_noise(seed: int, p: wp.array(dtype=wp.vec4), on: wp.array2d(dtype=float), oc: wp.array2d(dtype=wp.vec3),
                  oc2: wp.array2d(dtype=wp.vec2)):
    i = wp.tid()
    s = wp.rand_init(seed)
    x = (p[i] - wp.vec4(0.5, 0.5, 0.5, 0.5)) * 9.0
    on[i, 0] = wp.noise(s, x[0])
    on[i, 1] = wp.noise(s, wp.vec2(x[0], x[1]))
    on[i, 2] = wp.noise(s, wp.vec3(x[0], x[1], x[2]))
    on[i, 3] = wp.noise(s, x)
    on[i, 4] = wp.pnoise(s, x[1], 3)
    on[i, 5] = wp.pnoise(s, wp.vec2(x[0], x[1]), 2, 5)
    on[i, 6] = wp.pnoise(s, wp.vec3(x[0], x[1], x[2]), 3, 4, 2)
    on[i, 7] = wp.pnoise(s, x, 2, 3, 4, 5)
    oc[i, 0] = wp.curlnoise(s, wp.vec3(x[0], x[1], x[2]))
    oc[i, 1] = wp.curlnoise(s, wp.vec3(x[0], x[1], x[2]), wp.uint32(3), 2.5, 0.4)
    oc[i, 2] = wp.curlnoise(s, x)
    oc[i, 3] = wp.curlnoise(s, x, octaves=wp.uint32(2), gain=0.6)
    oc2[i, 0] = wp.curlnoise(s, wp.vec2(x[0], x[1]))
    oc2[i, 1] = wp.curlnoise(s, wp.vec2(x[2], x[3]), wp.uint32(4))
