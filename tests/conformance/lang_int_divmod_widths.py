# Integer / (truncates), // (floors) and % (C remainder, sign of the dividend) on
# negative operands of int8, int16, int32 and int64, with run-time values of both
# signs; unsigned // and % for comparison.
# kern-test: lang_int_divmod_widths --dim 8 a='rand(int32,8,seed=701)' b='rand(int32,8,seed=702)' out='zeros(int64,8,10)'
# kern-check: out
import warp as wp


@wp.kernel
def lang_int_divmod_widths(a: wp.array(dtype=int), b: wp.array(dtype=int), out: wp.array2d(dtype=wp.int64)):
    i = wp.tid()
    x = a[i] - 50
    y = b[i] % 9 - 4
    if y == 0:
        y = 3
    out[i, 0] = wp.int64(x / y)
    out[i, 1] = wp.int64(x // y)
    out[i, 2] = wp.int64(x % y)
    x8 = wp.int8(x)
    y8 = wp.int8(y)
    out[i, 3] = wp.int64(x8 // y8)
    out[i, 4] = wp.int64(x8 % y8)
    x16 = wp.int16(x * 300)
    y16 = wp.int16(y * 7)
    out[i, 5] = wp.int64(x16 // y16)
    out[i, 6] = wp.int64(x16 % y16)
    xl = wp.int64(x) * wp.int64(100000000)
    yl = wp.int64(y) * wp.int64(3)
    out[i, 7] = xl // yl
    out[i, 8] = xl % yl
    out[i, 9] = wp.int64(wp.uint32(a[i]) // wp.uint32(7) + wp.uint32(a[i]) % wp.uint32(7))
