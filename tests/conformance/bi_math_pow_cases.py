# wp.pow and ** in float32 on special and ordinary cases: negative bases
# with integral exponents, zero base with positive exponents, exponent 0,
# fractional exponents, pow of 1, and ** with float64.
# kern-test: bi_math_pow_cases --dim 16 x='rand(float32,16,seed=276)' out='zeros(float32,16,8)' od='zeros(float64,16,2)'
# why: powf differs by an ulp between OpenCL and glibc
# kern-check: out rtol=2e-7 atol=1e-7
# kern-check: od rtol=1e-14 atol=1e-15
import warp as wp


@wp.kernel
def bi_math_pow_cases(x: wp.array(dtype=float), out: wp.array2d(dtype=float), od: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    b = (x[i] - 0.5) * 6.0
    e = float(i % 5) - 1.0
    out[i, 0] = wp.pow(b, e)
    out[i, 1] = wp.pow(-wp.abs(b), 3.0)
    out[i, 2] = wp.pow(0.0, e + 2.0)
    out[i, 3] = wp.pow(b, 0.0)
    out[i, 4] = wp.pow(wp.abs(b), 0.37)
    out[i, 5] = wp.pow(1.0, b * 100.0)
    out[i, 6] = (wp.abs(b) + 0.5) ** -1.5
    out[i, 7] = wp.pow(2.0, b * 3.0)
    db = wp.float64(b)
    od[i, 0] = db ** wp.float64(e)
    od[i, 1] = (wp.abs(db) + wp.float64(0.1)) ** wp.float64(1.75)
