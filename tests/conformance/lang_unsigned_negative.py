# Unsigned values compared with negative literals, as Warp emits them in C: a uint32
# is converted to unsigned (u <= -1 is true for every value), a uint8 or uint16 is
# promoted to int (u8 < -1 is false), uint64 like uint32; and unsigned arithmetic that
# wraps below zero.
# kern-test: lang_unsigned_negative --dim 6 k='rand(int32,6,seed=741)' out='zeros(int32,6,8)' ou='zeros(uint32,6,2)'
# kern-check: out
# kern-check: ou
import warp as wp


@wp.kernel
def lang_unsigned_negative(k: wp.array(dtype=int), out: wp.array2d(dtype=int), ou: wp.array2d(dtype=wp.uint32)):
    i = wp.tid()
    u = wp.uint32(k[i])
    b = wp.uint8(k[i])
    h = wp.uint16(k[i] * 500)
    l = wp.uint64(k[i])
    out[i, 0] = int(u <= -1)
    out[i, 1] = int(u > -5)
    out[i, 2] = int(b < -1)
    out[i, 3] = int(b > -1)
    out[i, 4] = int(h >= -3)
    out[i, 5] = int(l < -1)
    out[i, 6] = int(u == 4294967295)
    out[i, 7] = int(u < 50)
    ou[i, 0] = u - wp.uint32(60)
    ou[i, 1] = wp.uint32(-k[i])
