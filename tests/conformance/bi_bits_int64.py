# Bit operations on int64 and uint64: & | ^ ~, arithmetic >> of negative
# int64, logical >> of uint64, << across bit 32, and the call forms
# wp.bit_and/bit_or/bit_xor/lshift/rshift/invert; wp.bit_count of both.
# kern-test: bi_bits_int64 --dim 12 a='rand(int64,12,2,seed=231)' o='zeros(int64,12,8)' ou='zeros(uint64,12,6)'
# kern-check: o
# kern-check: ou
import warp as wp


@wp.kernel
def bi_bits_int64(a: wp.array2d(dtype=wp.int64), o: wp.array2d(dtype=wp.int64), ou: wp.array2d(dtype=wp.uint64)):
    i = wp.tid()
    x = (a[i, 0] - wp.int64(50)) * wp.int64(0x123456789AB)
    y = a[i, 1] * wp.int64(0x1F00F00F0F)
    o[i, 0] = x & y
    o[i, 1] = x | ~y
    o[i, 2] = x ^ y
    o[i, 3] = x >> wp.int64(9)
    o[i, 4] = ((y >> wp.int64(8)) << wp.int64(20)) + (x << wp.int64(3))
    o[i, 5] = wp.bit_and(x, wp.int64(0xFFFFFFFF0000)) + wp.bit_or(y, wp.int64(1))
    o[i, 6] = wp.bit_xor(wp.lshift(x, wp.int64(2)), wp.rshift(y, wp.int64(33))) + wp.invert(x)
    o[i, 7] = wp.int64(wp.bit_count(x)) * wp.int64(100) + wp.int64(wp.bit_count(~y))
    u = wp.uint64(x) * wp.uint64(0x9E3779B97F4A7C15)
    v = wp.uint64(y) ^ (u >> wp.uint64(29))
    ou[i, 0] = u >> wp.uint64(31)
    ou[i, 1] = u << wp.uint64(17)
    ou[i, 2] = u & ~v
    ou[i, 3] = u | (v >> wp.uint64(60))
    ou[i, 4] = wp.rshift(u, wp.uint64(63)) + wp.lshift(v, wp.uint64(1))
    ou[i, 5] = wp.uint64(wp.bit_count(u))
