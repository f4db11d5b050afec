# Autodiff of float16 values: arithmetic, math builtins, min/abs and
# conversions between float16 and float32, in Warp's half precision.
# kern-test: half_arith --adjoint --dim 16 a='arange(float16,16)' b='arange(float32,16)' out='zeros(float16,16,4)' adj_a='zeros(float16,16)' adj_b='zeros(float32,16)' adj_out='ones(float16,16,4)'
# why: Warp computes a float16 value's adjoint in float16 (each operation rounded to half); kern's agrees within half precision
# kern-check: adj_a rtol=2e-3 atol=2e-3
# kern-check: adj_b rtol=2e-3 atol=2e-3
import warp as wp


@wp.kernel
def half_arith(a: wp.array(dtype=wp.float16), b: wp.array(dtype=float), out: wp.array2d(dtype=wp.float16)):
    i = wp.tid()
    x = a[i] * wp.float16(0.0625) + wp.float16(0.1)
    y = wp.float16(b[i] * 0.05)
    out[i, 0] = x * y + x / (y + wp.float16(1.0)) - (-x)
    out[i, 1] = wp.sin(x) * wp.exp(y) + wp.sqrt(x) + wp.erf(y)
    out[i, 2] = wp.max(x, y) + wp.abs(x - y) * wp.float16(2.0)
    out[i, 3] = wp.float16(wp.float32(x) * b[i]) - wp.log(x)
