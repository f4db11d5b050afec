# Autodiff of bfloat16 values: arithmetic, math builtins, min/abs and
# conversions between bfloat16 and float32, in bfloat16 precision.
# kern-test: bf16_arith --adjoint --dim 16 a='arange(bfloat16,16)' b='arange(float32,16)' out='zeros(bfloat16,16,4)' adj_a='zeros(bfloat16,16)' adj_b='zeros(float32,16)' adj_out='ones(bfloat16,16,4)'
# why: Warp computes a bfloat16 value's adjoint in bfloat16 (each operation rounded); kern's agrees within bfloat16 precision
# kern-check: adj_a rtol=2e-2 atol=1e-2
# kern-check: adj_b rtol=2e-2 atol=1e-2
import warp as wp


@wp.kernel
def bf16_arith(a: wp.array(dtype=wp.bfloat16), b: wp.array(dtype=float), out: wp.array2d(dtype=wp.bfloat16)):
    i = wp.tid()
    x = a[i] * wp.bfloat16(0.0625) + wp.bfloat16(0.1)
    y = wp.bfloat16(b[i] * 0.05)
    out[i, 0] = x * y + x / (y + wp.bfloat16(1.0)) - (-x)
    out[i, 1] = wp.sin(x) * wp.exp(y) + wp.sqrt(x) + wp.erf(y) + wp.tanh(x)
    out[i, 2] = wp.max(x, y) + wp.abs(x - y) * wp.bfloat16(2.0)
    out[i, 3] = wp.bfloat16(wp.float32(x) * b[i]) - wp.log(x)
