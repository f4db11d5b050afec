# bfloat16: arrays, arithmetic (float32 rounded to bfloat16 after every
# operation), conversions (ties to even; 8 significant bits), math, and
# atomics (add, sub, min and max, which Warp has for bfloat16).
# kern-test: bf16_basic --dim 16 x='rand(bfloat16,16,seed=7)' f='rand(float32,16,seed=8)' out='zeros(bfloat16,16,8)' wide='zeros(float32,16,4)' acc='zeros(bfloat16,4)'
# kern-check: out
# kern-check: wide
# kern-check: acc
import warp as wp


@wp.kernel
def bf16_basic(x: wp.array(dtype=wp.bfloat16), f: wp.array(dtype=float),
               out: wp.array2d(dtype=wp.bfloat16), wide: wp.array2d(dtype=float),
               acc: wp.array(dtype=wp.bfloat16)):
    i = wp.tid()
    a = x[i] * wp.bfloat16(300.0)
    b = wp.bfloat16(f[i] * 1000.0)
    out[i, 0] = a + b
    out[i, 1] = a * b - wp.bfloat16(1.0)
    out[i, 2] = a / b
    out[i, 3] = wp.sqrt(b)
    out[i, 4] = wp.bfloat16(257.0) + wp.bfloat16(float(i))
    out[i, 5] = wp.bfloat16(1.0e38) * wp.bfloat16(10.0)
    out[i, 6] = wp.min(a, b)
    out[i, 7] = wp.bfloat16(wp.float16(f[i]))
    wide[i, 0] = float(a)
    wide[i, 1] = float(b)
    wide[i, 2] = float(wp.bfloat16(f[i]))
    wide[i, 3] = float(wp.float16(a))
    wp.atomic_add(acc, 0, wp.bfloat16(float(i % 4)))
    wp.atomic_sub(acc, 1, wp.bfloat16(0.5))
    wp.atomic_max(acc, 2, wp.bfloat16(float(i)))
    wp.atomic_min(acc, 3, wp.bfloat16(-float(i)))
