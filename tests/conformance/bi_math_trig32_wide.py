# float32 trigonometric and hyperbolic functions over wide arguments
# (hundreds of radians, where range reduction matters), asin/acos at and
# beyond +-1 (Warp clamps), and tan near its poles.
# kern-test: bi_math_trig32_wide --dim 16 x='rand(float32,16,seed=283)' out='zeros(float32,16,8)'
# why: OpenCL's float32 trigonometric functions may be an ulp off glibc
# kern-check: out rtol=3e-7 atol=1e-7
import warp as wp


@wp.kernel
def bi_math_trig32_wide(x: wp.array(dtype=float), out: wp.array2d(dtype=float)):
    i = wp.tid()
    a = (x[i] - 0.5) * 800.0
    out[i, 0] = wp.sin(a)
    out[i, 1] = wp.cos(a)
    out[i, 2] = wp.tan(1.5707 + x[i] * 0.0001)
    out[i, 3] = wp.asin(float(i % 5) * 0.5 - 1.0)
    out[i, 4] = wp.acos(float(i % 5) * 0.5 - 1.0)
    out[i, 5] = wp.atan(a)
    out[i, 6] = wp.sinh(x[i] * 10.0 - 5.0) + wp.cosh(x[i] * 10.0) * 0.5
    out[i, 7] = wp.tanh(a * 0.01)
