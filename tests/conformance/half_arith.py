# float16 arrays and arithmetic: Warp computes each operation in float32 and
# rounds it to float16 (builtin.h), so a chain rounds after every step.
# kern-test: half_arith --dim 16 x='rand(float16,16,seed=3)' y='arange(float16,16)' out='zeros(float16,16,8)' wide='zeros(float32,16,3)' flags='zeros(int32,16,3)'
# kern-check: out
# kern-check: wide
# kern-check: flags
import warp as wp


@wp.kernel
def half_arith(x: wp.array(dtype=wp.float16), y: wp.array(dtype=wp.float16),
               out: wp.array2d(dtype=wp.float16), wide: wp.array2d(dtype=float),
               flags: wp.array2d(dtype=int)):
    i = wp.tid()
    a = x[i] * wp.float16(100.0)
    b = y[i] + wp.float16(0.1)
    out[i, 0] = a + b
    out[i, 1] = a - b * b
    out[i, 2] = a * b + wp.float16(1.0) / b
    out[i, 3] = a / b
    out[i, 4] = -a
    c = a
    c += b
    c *= wp.float16(3.0)
    c -= wp.float16(0.25)
    out[i, 5] = c
    out[i, 6] = (a + b) * (a - b)
    out[i, 7] = a * wp.float16(0.001) * wp.float16(1000.0)
    # widening is exact; the float32 product is not rounded to 16 bits
    wide[i, 0] = float(a)
    wide[i, 1] = float(a) * float(b)
    wide[i, 2] = float(a * b)
    flags[i, 0] = int(a < b)
    flags[i, 1] = int(a == wp.float16(float(a)))
    flags[i, 2] = int(b)
