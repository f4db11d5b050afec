# Conversions between the integer types as Warp defines them (C casts):
# narrowing keeps the low bits (int32 -> int8/uint8/int16/uint16), widening
# sign-extends signed and zero-extends unsigned values, int64 <-> uint64
# reinterpret, uint32 -> int32 wraps; and float -> int truncates toward zero.
# kern-test: ty_int_convert --dim 16 a='rand(int32,16,seed=197)' o='zeros(int64,16,14)'
# kern-check: o
import warp as wp


@wp.kernel
def ty_int_convert(a: wp.array(dtype=int), o: wp.array2d(dtype=wp.int64)):
    i = wp.tid()
    x = (a[i] - 50) * 987654
    o[i, 0] = wp.int64(wp.int8(x))
    o[i, 1] = wp.int64(wp.uint8(x))
    o[i, 2] = wp.int64(wp.int16(x))
    o[i, 3] = wp.int64(wp.uint16(x))
    o[i, 4] = wp.int64(wp.uint32(x))
    o[i, 5] = wp.int64(x)
    o[i, 6] = wp.int64(int(wp.uint32(x) + wp.uint32(3000000000)))
    o[i, 7] = wp.int64(wp.uint64(wp.int64(x)) >> wp.uint64(1))
    o[i, 8] = wp.int64(wp.int16(wp.int8(x)))
    o[i, 9] = wp.int64(wp.uint16(wp.int8(x)))
    o[i, 10] = wp.int64(wp.int32(wp.float32(x) * 0.001))
    o[i, 11] = wp.int64(wp.float64(x) * wp.float64(-1.5e6))
    o[i, 12] = wp.int64(wp.uint8(wp.float32(a[i]) * 2.5))
    o[i, 13] = wp.int64(wp.int8(wp.uint8(x)))
