# rand_init(seed) and rand_init(seed, offset); randf(state) and randf(state, lo, hi);
# successive calls advance the state.
# kern-test: random_randf --dim 16 seed=42 out='zeros(float32,16,5)'
# kern-check: out
import warp as wp


@wp.kernel
def random_randf(seed: int, out: wp.array2d(dtype=wp.float32)):
    i = wp.tid()
    s = wp.rand_init(seed + i)
    out[i, 0] = wp.randf(s)
    out[i, 1] = wp.randf(s)
    out[i, 2] = wp.randf(s, -2.0, 3.0)
    t = wp.rand_init(seed, i)
    out[i, 3] = wp.randf(t)
    out[i, 4] = wp.randf(t, 10.0, 20.0)
