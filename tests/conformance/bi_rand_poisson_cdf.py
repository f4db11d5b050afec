# wp.poisson with small means (Knuth's method) and large means (the PTRS
# sampler), several draws per state, and wp.sample_cdf over a cumulative
# array; also wp.randi over a wide span with a negative lower bound.
# kern-test: bi_rand_poisson_cdf --dim 16 cdf='arange(float32,8)' out='zeros(int32,16,6)'
# kern-check: out
import warp as wp


@wp.kernel
def bi_rand_poisson_cdf(cdf: wp.array(dtype=float), out: wp.array2d(dtype=int)):
    i = wp.tid()
    s = wp.rand_init(99, i)
    out[i, 0] = int(wp.poisson(s, 3.5))
    out[i, 1] = int(wp.poisson(s, 0.25 + float(i)))
    out[i, 2] = int(wp.poisson(s, 40.0 + float(i) * 10.0))
    out[i, 3] = int(wp.poisson(s, 500.0))
    out[i, 4] = wp.sample_cdf(s, cdf)
    out[i, 5] = wp.randi(s, -1000000000, 1000000000)
