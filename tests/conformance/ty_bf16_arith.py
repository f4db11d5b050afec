# bfloat16 arithmetic: + - * / // %, unary minus, comparisons, min/max/
# clamp/abs, each computed in float32 and rounded to bfloat16 (ties to even),
# and a loop accumulating in bfloat16 (rounded every step).
# kern-test: ty_bf16_arith --dim 16 x='rand(bfloat16,16,seed=176)' y='rand(float32,16,seed=177)' out='zeros(bfloat16,16,12)' flags='zeros(int32,16)'
# kern-check: out
# kern-check: flags
import warp as wp


@wp.kernel
def ty_bf16_arith(x: wp.array(dtype=wp.bfloat16), y: wp.array(dtype=float), out: wp.array2d(dtype=wp.bfloat16),
                  flags: wp.array(dtype=int)):
    i = wp.tid()
    a = x[i] * wp.bfloat16(10.0) - wp.bfloat16(3.0)
    b = wp.bfloat16(y[i] * 7.0 + 0.5)
    out[i, 0] = a + b
    out[i, 1] = a - b * wp.bfloat16(3.0)
    out[i, 2] = a * b
    out[i, 3] = a / b
    out[i, 4] = a // b
    out[i, 5] = a % b
    out[i, 6] = -a
    out[i, 7] = wp.min(a, b) + wp.max(a, b)
    out[i, 8] = wp.clamp(a, wp.bfloat16(-1.0), wp.bfloat16(2.0))
    out[i, 9] = wp.abs(a)
    acc = wp.bfloat16(0.0)
    for k in range(20):
        acc = acc + b * wp.bfloat16(0.1)
    out[i, 10] = acc
    out[i, 11] = wp.bfloat16(1000.0) + a
    f = 0
    if a < b:
        f = f + 1
    if a == b:
        f = f + 2
    if a >= wp.bfloat16(0.0):
        f = f + 4
    flags[i] = f
