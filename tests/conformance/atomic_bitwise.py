# atomic_and / atomic_or / atomic_xor on int32, uint32 and int64 (order-independent totals)
# plus the returned old values on owned slots.
# kern-test: atomic_bitwise --dim 32 a='full(int32,1,-1)' o='zeros(uint32,1)' x='zeros(int64,1)' own='full(int32,32,255)' old='zeros(int32,32,3)'
# kern-check: a
# kern-check: o
# kern-check: x
# kern-check: own
# kern-check: old
import warp as wp


@wp.kernel
def atomic_bitwise(a: wp.array(dtype=wp.int32), o: wp.array(dtype=wp.uint32), x: wp.array(dtype=wp.int64),
                   own: wp.array(dtype=wp.int32), old: wp.array2d(dtype=wp.int32)):
    i = wp.tid()
    wp.atomic_and(a, 0, ~(1 << (i % 31)) | (i & 1))
    wp.atomic_or(o, 0, wp.uint32(1) << wp.uint32(i))
    wp.atomic_xor(x, 0, wp.int64(i * 12345) << wp.int64(i % 20))
    old[i, 0] = wp.atomic_and(own, i, 0xF0 | i)
    old[i, 1] = wp.atomic_or(own, i, 0x300)
    old[i, 2] = wp.atomic_xor(own, i, i * 3)
