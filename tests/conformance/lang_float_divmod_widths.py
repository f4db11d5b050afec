# Float / , // (floor of the quotient) and % (fmod, sign of the dividend) on negative
# float32 and float64 operands, and wp.mod / wp.floor next to them.
# kern-test: lang_float_divmod_widths --dim 8 a='rand(float,8,seed=711)' b='rand(float64,8,seed=712)' out='zeros(float,8,4)' od='zeros(float64,8,4)'
# kern-check: out
# kern-check: od
import warp as wp


@wp.kernel
def lang_float_divmod_widths(a: wp.array(dtype=float), b: wp.array(dtype=wp.float64), out: wp.array2d(dtype=float),
                             od: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    x = (a[i] - 0.5) * 20.0
    y = 1.5 if i % 2 == 0 else -2.25
    out[i, 0] = x / y
    out[i, 1] = x // y
    out[i, 2] = x % y
    out[i, 3] = wp.mod(x, y) - wp.floor(x / y)
    p = (b[i] - wp.float64(0.5)) * wp.float64(30.0)
    q = wp.float64(-0.75) if i % 3 == 0 else wp.float64(2.5)
    od[i, 0] = p / q
    od[i, 1] = p // q
    od[i, 2] = p % q
    od[i, 3] = wp.mod(p, q) + wp.trunc(p / q)
