# wp.randn drawn many times in a loop (the Box-Muller pair uses two draws
# per call), its running mean and sum of squares per thread, and the state
# after the loop.
# kern-test: bi_rand_randn_loop --dim 8 out='zeros(float32,8,4)' st='zeros(uint32,8)'
# why: the sums of 64 Gaussian draws go through log/cos of the platform (one ulp on OpenCL)
# kern-check: out rtol=1e-5 atol=1e-5
# kern-check: st
import warp as wp


@wp.kernel
def bi_rand_randn_loop(out: wp.array2d(dtype=float), st: wp.array(dtype=wp.uint32)):
    i = wp.tid()
    s = wp.rand_init(2024, i)
    total = float(0.0)
    sq = float(0.0)
    first = wp.randn(s)
    for k in range(64):
        g = wp.randn(s)
        total = total + g
        sq = sq + g * g
    out[i, 0] = first
    out[i, 1] = total / 64.0
    out[i, 2] = sq / 64.0
    out[i, 3] = wp.randn(s) * 2.0 + 1.0
    st[i] = s
