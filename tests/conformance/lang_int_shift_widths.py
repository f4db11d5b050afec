# Shifts and bit operations on int8, int16, int64, uint16 and uint64 values with
# run-time operands: arithmetic >> on negative signed values, logical >> on unsigned,
# << that wraps, &, |, ^, ~ (shift counts of the same type, within the width).
# kern-test: lang_int_shift_widths --dim 6 k='rand(int32,6,seed=961)' out='zeros(int64,6,10)'
# kern-check: out
import warp as wp


@wp.kernel
def lang_int_shift_widths(k: wp.array(dtype=int), out: wp.array2d(dtype=wp.int64)):
    i = wp.tid()
    v = k[i] - 50
    s = k[i] % 5
    a8 = wp.int8(v)
    out[i, 0] = wp.int64(a8 >> wp.int8(s))
    out[i, 1] = wp.int64(a8 << wp.int8(s))
    a16 = wp.int16(v * 300)
    out[i, 2] = wp.int64((a16 >> wp.int16(s + 2)) ^ wp.int16(0x0F0F))
    u16 = wp.uint16(k[i] * 700)
    out[i, 3] = wp.int64(u16 >> wp.uint16(s + 1))
    out[i, 4] = wp.int64(~u16)
    l = wp.int64(v) * wp.int64(123456789)
    out[i, 5] = l >> wp.int64(s + 3)
    out[i, 6] = (l << wp.int64(20)) | wp.int64(s)
    ul = wp.uint64(k[i]) * wp.uint64(0x0123456789ABCDEF)
    out[i, 7] = wp.int64(ul >> wp.uint64(40))
    out[i, 8] = wp.int64(ul & wp.uint64(0xFFFF0000FFFF))
    out[i, 9] = wp.int64(~a8 & wp.int8(0x7F))
