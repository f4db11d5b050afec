# sqrt cbrt exp log log2 log10 pow in float32 and float64 (exp2 does not exist in Warp 1.19).
# kern-test: math_sqrt_exp_log --dim 8 x='rand(float32,8,seed=27)' y='rand(float64,8,seed=27)' of='zeros(float32,8,8)' od='zeros(float64,8,8)'
# why: transcendental functions; libm and CUDA differ by a few ulp (float32 ~1e-7 rel).
# kern-check: of rtol=2e-6 atol=1e-6
# kern-check: od rtol=1e-13 atol=1e-14
import warp as wp


@wp.kernel
def math_sqrt_exp_log(x: wp.array(dtype=wp.float32), y: wp.array(dtype=wp.float64), of: wp.array2d(dtype=wp.float32),
                      od: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    a = x[i] * 9.0 + 0.1
    of[i, 0] = wp.sqrt(a)
    of[i, 1] = wp.cbrt(a - 4.0)
    of[i, 2] = wp.exp(a - 5.0)
    of[i, 3] = wp.log(a)
    of[i, 4] = wp.log2(a)
    of[i, 5] = wp.log10(a)
    of[i, 6] = wp.pow(a, 1.7)
    of[i, 7] = wp.pow(-a, 3.0)
    b = y[i] * wp.float64(9.0) + wp.float64(0.1)
    od[i, 0] = wp.sqrt(b)
    od[i, 1] = wp.cbrt(b - wp.float64(4.0))
    od[i, 2] = wp.exp(b - wp.float64(5.0))
    od[i, 3] = wp.log(b)
    od[i, 4] = wp.log2(b)
    od[i, 5] = wp.log10(b)
    od[i, 6] = wp.pow(b, wp.float64(1.7))
    od[i, 7] = wp.pow(-b, wp.float64(3.0))
