# int64 arithmetic beyond the int32 range: products and sums of large
# values, wraparound at 2^63, // (floor) and % (C) with mixed signs, shifts
# up to 62, abs/min/max/sign, and conversions to and from int32 and float64.
# kern-test: ty_int64_arith --dim 12 a='rand(int64,12,seed=195)' o='zeros(int64,12,12)' od='zeros(float64,12)'
# kern-check: o
# kern-check: od
import warp as wp


@wp.kernel
def ty_int64_arith(a: wp.array(dtype=wp.int64), o: wp.array2d(dtype=wp.int64), od: wp.array(dtype=wp.float64)):
    i = wp.tid()
    x = (a[i] - wp.int64(50)) * wp.int64(123456789012)
    y = wp.int64(i * 1000003 - 6000000) * wp.int64(77777)
    o[i, 0] = x + y
    o[i, 1] = x * wp.int64(98765)
    o[i, 2] = wp.int64(9223372036854775807) + wp.int64(i)
    o[i, 3] = x // wp.int64(-1000000007)
    o[i, 4] = x % wp.int64(-1000000007)
    o[i, 5] = y // wp.int64(333)
    o[i, 6] = (wp.int64(1) << wp.int64(40 + i)) + (x >> wp.int64(7))
    o[i, 7] = wp.abs(x) - wp.max(x, y) + wp.min(x, y)
    o[i, 8] = wp.int64(wp.sign(x)) * wp.int64(3)
    o[i, 9] = wp.int64(int(x))
    o[i, 10] = wp.int64(wp.float64(y) * wp.float64(0.25))
    o[i, 11] = ~x & y | (x ^ wp.int64(0x7FFF0000FFFF))
    od[i] = wp.float64(x) + wp.float64(y)
