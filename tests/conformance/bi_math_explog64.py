# The exponential family in float64: exp, log, log2, log10, sqrt, cbrt of
# negative and positive values, pow (also ** with a negative base and an
# integral exponent), and exp/log round trips.
# kern-test: bi_math_explog64 --dim 16 x='rand(float64,16,seed=214)' out='zeros(float64,16,11)'
# why: OpenCL's float64 exp/log/pow/cbrt may differ from glibc by an ulp
# kern-check: out rtol=1e-14 atol=1e-15
import warp as wp


@wp.kernel
def bi_math_explog64(x: wp.array(dtype=wp.float64), out: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    a = x[i] * wp.float64(20.0) + wp.float64(0.01)
    b = (x[i] - wp.float64(0.5)) * wp.float64(10.0)
    out[i, 0] = wp.exp(b)
    out[i, 1] = wp.log(a)
    out[i, 2] = wp.log2(a)
    out[i, 3] = wp.log10(a * wp.float64(1000.0))
    out[i, 4] = wp.sqrt(a)
    out[i, 5] = wp.cbrt(b)
    out[i, 6] = wp.pow(a, b)
    out[i, 7] = b ** wp.float64(3.0)
    out[i, 8] = wp.log(wp.exp(b))
    out[i, 9] = wp.pow(a, wp.float64(0.5))
    out[i, 10] = wp.exp(-a * a)
