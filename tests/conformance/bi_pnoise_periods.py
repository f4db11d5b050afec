# wp.pnoise (periodic Perlin noise) in 1 to 4 dimensions with several
# periods and seeds, and the periodicity itself (a point and the point
# shifted by a period give the same value).
# kern-test: bi_pnoise_periods --dim 16 p='rand(vec4,16,seed=242)' out='zeros(float32,16,8)'
# kern-check: out
import warp as wp


@wp.kernel
def bi_pnoise_periods(p: wp.array(dtype=wp.vec4), out: wp.array2d(dtype=float)):
    i = wp.tid()
    x = (p[i] - wp.vec4(0.5, 0.5, 0.5, 0.5)) * 16.0
    s = wp.rand_init(31 + i * 5)
    out[i, 0] = wp.pnoise(s, x[0], 4)
    out[i, 1] = wp.pnoise(s, x[0] + 4.0, 4) - out[i, 0] + wp.pnoise(s, x[1], 7)
    out[i, 2] = wp.pnoise(s, wp.vec2(x[0], x[1]), 3, 5)
    out[i, 3] = wp.pnoise(s, wp.vec3(x[0], x[1], x[2]), 2, 3, 4)
    out[i, 4] = wp.pnoise(s, x, 2, 2, 3, 5)
    out[i, 5] = wp.pnoise(s, wp.vec2(x[2] + 6.0, x[3]), 6, 1)
    out[i, 6] = wp.pnoise(wp.rand_init(7), wp.vec3(x[3], x[2], x[1]), 8, 8, 8)
    out[i, 7] = wp.pnoise(wp.rand_init(i), x[2], 1)
