# Math builtins on float16: computed in float32 and rounded once (Warp's
# half overloads), except the ones whose formula is a chain of float16
# operations: floor division rounds the quotient first, lerp and
# smoothstep round every step.
# kern-test: half_math --dim 16 x='rand(float16,16,seed=11)' out='zeros(float16,16,24)'
# kern-check: out
import warp as wp


@wp.kernel
def half_math(x: wp.array(dtype=wp.float16), out: wp.array2d(dtype=wp.float16)):
    i = wp.tid()
    a = x[i] * wp.float16(8.0) - wp.float16(3.0)
    b = x[(i + 5) % 16] + wp.float16(0.5)
    out[i, 0] = wp.sqrt(b)
    out[i, 1] = wp.exp(a)
    out[i, 2] = wp.log(b)
    out[i, 3] = wp.sin(a)
    out[i, 4] = wp.cos(a)
    out[i, 5] = wp.abs(a)
    out[i, 6] = wp.min(a, b)
    out[i, 7] = wp.max(a, b)
    out[i, 8] = wp.clamp(a, wp.float16(-1.0), wp.float16(1.5))
    out[i, 9] = wp.floor(a)
    out[i, 10] = wp.ceil(a)
    out[i, 11] = wp.round(a)
    out[i, 12] = a ** b
    out[i, 13] = a // b
    out[i, 14] = a % b
    out[i, 15] = wp.sign(a)
    out[i, 16] = wp.trunc(a) + wp.frac(a)
    out[i, 17] = wp.lerp(a, b, wp.float16(0.3))
    out[i, 18] = wp.smoothstep(wp.float16(-2.0), wp.float16(3.0), a)
    out[i, 19] = wp.tanh(a) + wp.atan2(a, b)
    out[i, 20] = wp.pow(b, wp.float16(2.5))
    out[i, 21] = wp.degrees(a)
    out[i, 22] = wp.where(wp.isinf(a * wp.float16(30000.0)), wp.float16(1.0), wp.float16(0.0))
    out[i, 23] = wp.exp(a * wp.float16(4.0))
