# int16 and uint16 arithmetic with wraparound, division (truncating /,
# flooring //), remainder, min/max/abs/sign/clamp and conversions between
# the two and from int32.
# kern-test: ty_int16_wrap --dim 16 a='rand(int16,16,seed=193)' b='rand(uint16,16,seed=194)' o='zeros(int16,16,10)' ou='zeros(uint16,16,6)'
# kern-check: o
# kern-check: ou
import warp as wp


@wp.kernel
def ty_int16_wrap(a: wp.array(dtype=wp.int16), b: wp.array(dtype=wp.uint16), o: wp.array2d(dtype=wp.int16),
                  ou: wp.array2d(dtype=wp.uint16)):
    i = wp.tid()
    x = a[i] * wp.int16(400) - wp.int16(20000)
    y = wp.int16(i * 2500 - 19000)
    o[i, 0] = x + y
    o[i, 1] = x * wp.int16(7)
    o[i, 2] = x / wp.int16(-13)
    o[i, 3] = x // wp.int16(-13)
    o[i, 4] = x % wp.int16(-13)
    o[i, 5] = wp.abs(y) + wp.sign(x)
    o[i, 6] = wp.min(x, y) - wp.max(x, y)
    o[i, 7] = wp.clamp(x, wp.int16(-1000), wp.int16(1000))
    o[i, 8] = wp.int16(b[i] * wp.uint16(1000))
    o[i, 9] = wp.int16(i * 5000)
    u = b[i] * wp.uint16(700)
    ou[i, 0] = u + wp.uint16(60000)
    ou[i, 1] = u - wp.uint16(i * 300)
    ou[i, 2] = u * u
    ou[i, 3] = u / wp.uint16(9) + u % wp.uint16(9)
    ou[i, 4] = wp.uint16(x)
    ou[i, 5] = ~u
