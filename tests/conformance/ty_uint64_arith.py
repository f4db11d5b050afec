# uint64 arithmetic with wraparound at 2^64: large sums and products,
# subtraction below zero, division and remainder, logical shifts, bit ops,
# min/max, and conversions from int64 and to float64.
# kern-test: ty_uint64_arith --dim 12 a='rand(uint64,12,seed=196)' o='zeros(uint64,12,10)' od='zeros(float64,12)'
# kern-check: o
# kern-check: od
import warp as wp


@wp.kernel
def ty_uint64_arith(a: wp.array(dtype=wp.uint64), o: wp.array2d(dtype=wp.uint64), od: wp.array(dtype=wp.float64)):
    i = wp.tid()
    x = a[i] * wp.uint64(1000000000000000003)
    y = wp.uint64(i) * wp.uint64(1234567890123)
    o[i, 0] = x + y
    o[i, 1] = y - x
    o[i, 2] = x * y
    o[i, 3] = x / (y + wp.uint64(1))
    o[i, 4] = x % (y + wp.uint64(7))
    o[i, 5] = (x >> wp.uint64(13)) | (y << wp.uint64(20))
    o[i, 6] = wp.max(x, y) - wp.min(x, y)
    o[i, 7] = wp.uint64(wp.int64(i) - wp.int64(6))
    o[i, 8] = ~x ^ y
    o[i, 9] = wp.uint64(18446744073709551615) - wp.uint64(i)
    od[i] = wp.float64(x)
