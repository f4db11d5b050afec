# Bit operations on int8, uint8, int16 and uint16: & | ^ ~ and shifts
# (arithmetic for signed, logical for unsigned), truncated back to the
# type, and wp.bit_count of each.
# kern-test: bi_bits_small --dim 16 a='rand(int32,16,2,seed=232)' o8='zeros(int8,16,5)' ou8='zeros(uint8,16,5)' o16='zeros(int16,16,5)' ou16='zeros(uint16,16,5)'
# kern-check: o8
# kern-check: ou8
# kern-check: o16
# kern-check: ou16
import warp as wp


@wp.kernel
def bi_bits_small(a: wp.array2d(dtype=int), o8: wp.array2d(dtype=wp.int8), ou8: wp.array2d(dtype=wp.uint8),
                  o16: wp.array2d(dtype=wp.int16), ou16: wp.array2d(dtype=wp.uint16)):
    i = wp.tid()
    p = a[i, 0] * 3 - 150
    q = a[i, 1] * 7 + 11
    b = wp.int8(p)
    c = wp.int8(q)
    o8[i, 0] = b & c
    o8[i, 1] = b | ~c
    o8[i, 2] = b ^ c
    o8[i, 3] = b >> wp.int8(3)
    o8[i, 4] = wp.int8(wp.bit_count(b)) + (c << wp.int8(1))
    u = wp.uint8(p)
    v = wp.uint8(q)
    ou8[i, 0] = u & v
    ou8[i, 1] = ~u | v
    ou8[i, 2] = u ^ ~v
    ou8[i, 3] = u >> wp.uint8(3)
    ou8[i, 4] = (u << wp.uint8(2)) + wp.uint8(wp.bit_count(v))
    s = wp.int16(p * 211)
    t = wp.int16(q * 97)
    o16[i, 0] = s & t
    o16[i, 1] = s | t
    o16[i, 2] = ~s ^ t
    o16[i, 3] = s >> wp.int16(5)
    o16[i, 4] = (t << wp.int16(4)) - wp.int16(wp.bit_count(s))
    w = wp.uint16(p * 211)
    z = wp.uint16(q * 97)
    ou16[i, 0] = w & z
    ou16[i, 1] = w | ~z
    ou16[i, 2] = w ^ z
    ou16[i, 3] = w >> wp.uint16(7)
    ou16[i, 4] = (z << wp.uint16(9)) + wp.uint16(wp.bit_count(w))
