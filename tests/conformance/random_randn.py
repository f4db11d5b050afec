# randn(state): Box-Muller, sqrt(-2*log(randf(s) + 5.96e-8)) * cos(2*pi*randf(s)),
# where the first randf() call feeds the log and the second the cos (Warp's C++ evaluates left to right).
# kern-test: random_randn --dim 16 out='zeros(float32,16,3)'
# why: log/cos/sqrt in float32 differ by a few ulp between libm and CUDA.
# kern-check: out rtol=1e-5 atol=2e-6
import warp as wp


@wp.kernel
def random_randn(out: wp.array2d(dtype=wp.float32)):
    i = wp.tid()
    s = wp.rand_init(7, i)
    out[i, 0] = wp.randn(s)
    out[i, 1] = wp.randn(s)
    out[i, 2] = wp.randf(s)    # the state advanced by exactly two steps per randn
