# Random streams: wp.rand_init(seed) and wp.rand_init(seed, offset) with
# large and negative seeds, successive draws of wp.randi (with and without a
# range, including negative bounds), wp.randf with a range, and wp.randu.
# kern-test: bi_rand_init_offset --dim 16 seeds='rand(int32,16,seed=251)' oi='zeros(int32,16,6)' of='zeros(float32,16,4)' ou='zeros(uint32,16,2)'
# kern-check: oi
# kern-check: of
# kern-check: ou
import warp as wp


@wp.kernel
def bi_rand_init_offset(seeds: wp.array(dtype=int), oi: wp.array2d(dtype=int), of: wp.array2d(dtype=float),
                        ou: wp.array2d(dtype=wp.uint32)):
    i = wp.tid()
    s = wp.rand_init(seeds[i] * 1000003 - 2000000000, i * 7)
    t = wp.rand_init(-i)
    oi[i, 0] = wp.randi(s)
    oi[i, 1] = wp.randi(s)
    oi[i, 2] = wp.randi(s, -50, 50)
    oi[i, 3] = wp.randi(t, 1000, 1000000)
    oi[i, 4] = wp.randi(t, -7, -2)
    oi[i, 5] = int(s) % 1000
    of[i, 0] = wp.randf(s)
    of[i, 1] = wp.randf(s, -3.0, 5.0)
    of[i, 2] = wp.randf(t, 100.0, 100.5)
    of[i, 3] = wp.randf(t) + wp.randf(t)
    ou[i, 0] = wp.randu(s)
    ou[i, 1] = t
