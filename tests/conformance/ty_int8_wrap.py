# int8 and uint8 arithmetic with Warp's wraparound: + - * on values that
# overflow, unary minus of -128, // (floor) and % (C remainder) with mixed
# signs, conversions from int32 (truncating to the low byte) and shifts.
# kern-test: ty_int8_wrap --dim 16 a='rand(int8,16,seed=191)' b='rand(uint8,16,seed=192)' o8='zeros(int8,16,8)' ou='zeros(uint8,16,8)'
# kern-check: o8
# kern-check: ou
import warp as wp


@wp.kernel
def ty_int8_wrap(a: wp.array(dtype=wp.int8), b: wp.array(dtype=wp.uint8), o8: wp.array2d(dtype=wp.int8),
                 ou: wp.array2d(dtype=wp.uint8)):
    i = wp.tid()
    x = a[i] + wp.int8(60)
    y = wp.int8(i * 13 - 100)
    o8[i, 0] = x + y
    o8[i, 1] = x * y
    o8[i, 2] = -y - x
    o8[i, 3] = wp.int8(-128) - x
    o8[i, 4] = x // wp.int8(-7) + y // wp.int8(5)
    o8[i, 5] = y % wp.int8(-7) + x % wp.int8(3)
    o8[i, 6] = wp.int8(i * 1000 + 77)
    o8[i, 7] = (y >> wp.int8(2)) + (x << wp.int8(2))
    u = b[i] * wp.uint8(3)
    v = wp.uint8(i * 37)
    ou[i, 0] = u + v
    ou[i, 1] = u - v
    ou[i, 2] = u * v
    ou[i, 3] = -u
    ou[i, 4] = u // (v + wp.uint8(1))
    ou[i, 5] = u % (v | wp.uint8(1))
    ou[i, 6] = wp.uint8(y)
    ou[i, 7] = (u >> wp.uint8(3)) ^ (v << wp.uint8(1))
