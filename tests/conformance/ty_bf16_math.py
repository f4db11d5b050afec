# bfloat16 math builtins: log, log2, tanh, atan2, pow, cbrt, trunc,
# frac, sign, step, lerp and smoothstep (rounded each step), and
# conversions of the results to float32.
# kern-test: ty_bf16_math --dim 16 x='rand(bfloat16,16,seed=284)' out='zeros(bfloat16,16,12)' of='zeros(float32,16)'
# kern-check: out
# kern-check: of
import warp as wp


@wp.kernel
def ty_bf16_math(x: wp.array(dtype=wp.bfloat16), out: wp.array2d(dtype=wp.bfloat16), of: wp.array(dtype=float)):
    i = wp.tid()
    a = x[i] * wp.bfloat16(6.0) - wp.bfloat16(2.0)
    b = x[(i + 7) % 16] * wp.bfloat16(3.0) + wp.bfloat16(0.5)
    out[i, 0] = wp.log(b)
    out[i, 1] = wp.log2(b)
    out[i, 2] = wp.tanh(a)
    out[i, 3] = wp.atan2(a, b)
    out[i, 4] = wp.pow(b, a)
    out[i, 5] = wp.cbrt(a)
    out[i, 6] = wp.trunc(a) - wp.frac(a)
    out[i, 7] = wp.sign(a) + wp.step(a)
    out[i, 8] = wp.lerp(a, b, wp.bfloat16(0.3))
    out[i, 9] = wp.smoothstep(wp.bfloat16(-1.0), wp.bfloat16(2.0), a)
    out[i, 10] = wp.sqrt(b) * wp.exp(-b)
    out[i, 11] = wp.cos(a) + wp.sin(b)
    of[i] = float(wp.tanh(a)) * 1000.0
