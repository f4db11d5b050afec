# Float / // % and wp.mod with negative operands, float32 and float64.
# Warp: float `//` is floor(a/b); float `%` and wp.mod are fmod (sign of dividend).
# kern-test: float_divmod_negative --dim 6 a='arange(float32,6)' b='arange(float64,6)' of='zeros(float32,6,8)' od='zeros(float64,6,5)'
# kern-check: of
# kern-check: od
import warp as wp


@wp.kernel
def float_divmod_negative(a: wp.array(dtype=wp.float32), b: wp.array(dtype=wp.float64),
                          of: wp.array2d(dtype=wp.float32), od: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    x = a[i] * 1.5 - 4.25     # -4.25 -2.75 -1.25 0.25 1.75 3.25
    of[i, 0] = x // 2.0
    of[i, 1] = x // -2.0
    of[i, 2] = x % 2.0
    of[i, 3] = x % -2.0
    of[i, 4] = x / -2.0
    of[i, 5] = wp.mod(x, 2.0)
    of[i, 6] = wp.mod(x, -2.0)
    of[i, 7] = -7.5 // 2.0
    y = b[i] * wp.float64(1.5) - wp.float64(4.25)
    two = wp.float64(2.0)
    od[i, 0] = y // two
    od[i, 1] = y // -two
    od[i, 2] = y % two
    od[i, 3] = y % -two
    od[i, 4] = wp.mod(y, -two)
