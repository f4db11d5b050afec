# Autodiff of the scalar math builtins in float32.
# kern-test: math32 --adjoint --dim 16 a='arange(float32,16)' out='zeros(float32,16,10)' adj_a='zeros(float32,16)' adj_out='ones(float32,16,10)'
# why: the adjoints of transcendental functions, float32 on both sides
# kern-check: adj_a rtol=2e-5 atol=1e-5
import warp as wp


@wp.kernel
def math32(a: wp.array(dtype=float), out: wp.array2d(dtype=float)):
    i = wp.tid()
    x = a[i] * 0.05 + 0.1
    out[i, 0] = wp.sqrt(x) + wp.exp(x)
    out[i, 1] = wp.log(x) * wp.sin(x)
    out[i, 2] = wp.cos(x) / (2.0 + wp.tan(x))
    out[i, 3] = wp.tanh(x) + wp.sinh(x) * wp.cosh(x)
    out[i, 4] = wp.asin(x * 0.5) + wp.acos(x * 0.5) * 2.0 + wp.atan(x)
    out[i, 5] = wp.atan2(x, 1.0 - x) + wp.pow(x, 2.5) + wp.pow(1.5, x)
    out[i, 6] = wp.abs(x - 0.5) + wp.floor(x * 3.0) + wp.ceil(x) * x
    out[i, 7] = wp.min(x, 0.5) + wp.max(x * x, 0.3) + wp.clamp(x, 0.2, 0.6)
    out[i, 8] = wp.log2(x) + wp.log10(x) + x ** 3.0
    out[i, 9] = wp.where(x > 0.4, x * 2.0, x * x) + wp.where(x < 0.3, wp.sqrt(x), 1.0 - x)
