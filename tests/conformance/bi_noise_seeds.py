# wp.noise (Perlin) in 1 to 4 dimensions with several seeds from
# wp.rand_init(seed) and wp.rand_init(seed, offset), over points with
# negative coordinates and exact lattice points.
# kern-test: bi_noise_seeds --dim 16 p='rand(vec4,16,seed=241)' seed='arange(int32,16)' out='zeros(float32,16,8)'
# kern-check: out
import warp as wp


@wp.kernel
def bi_noise_seeds(p: wp.array(dtype=wp.vec4), seed: wp.array(dtype=int), out: wp.array2d(dtype=float)):
    i = wp.tid()
    x = (p[i] - wp.vec4(0.5, 0.5, 0.5, 0.5)) * 20.0
    s1 = wp.rand_init(seed[i] * 7919)
    s2 = wp.rand_init(12345, seed[i])
    out[i, 0] = wp.noise(s1, x[0])
    out[i, 1] = wp.noise(s1, wp.vec2(x[0], x[1]))
    out[i, 2] = wp.noise(s1, wp.vec3(x[0], x[1], x[2]))
    out[i, 3] = wp.noise(s1, x)
    out[i, 4] = wp.noise(s2, x[3])
    out[i, 5] = wp.noise(s2, wp.vec2(x[2], x[3]))
    out[i, 6] = wp.noise(s2, wp.vec3(float(i), -float(i), 0.5))
    out[i, 7] = wp.noise(wp.rand_init(seed[i] + 100), wp.vec4(x[1], x[2], x[3], x[0]))
