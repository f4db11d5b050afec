# float16 to and from every integer type: int8, uint8, int16, uint16,
# int32, uint32, int64, uint64 into float16 (through float32, rounded to
# even, large values to inf are avoided) and float16 back to each integer
# type (truncating toward zero).
# kern-test: ty_half_convert_ints --dim 16 x='rand(float16,16,seed=182)' oh='zeros(float16,16,8)' oi='zeros(int64,16,8)'
# kern-check: oh
# kern-check: oi
import warp as wp


@wp.kernel
def ty_half_convert_ints(x: wp.array(dtype=wp.float16), oh: wp.array2d(dtype=wp.float16),
                         oi: wp.array2d(dtype=wp.int64)):
    i = wp.tid()
    h = (x[i] - wp.float16(0.5)) * wp.float16(200.0)
    p = wp.abs(h)
    oh[i, 0] = wp.float16(wp.int8(i * 9 - 70))
    oh[i, 1] = wp.float16(wp.uint8(i * 17))
    oh[i, 2] = wp.float16(wp.int16(i * 2001 - 15000))
    oh[i, 3] = wp.float16(wp.uint16(i * 4001))
    oh[i, 4] = wp.float16(i * 3333 - 25000)
    oh[i, 5] = wp.float16(wp.uint32(i * 4097))
    oh[i, 6] = wp.float16(wp.int64(i) * wp.int64(-2049))
    oh[i, 7] = wp.float16(wp.uint64(i * 1025))
    oi[i, 0] = wp.int64(wp.int8(h))
    oi[i, 1] = wp.int64(wp.uint8(p))
    oi[i, 2] = wp.int64(wp.int16(h * wp.float16(50.0)))
    oi[i, 3] = wp.int64(wp.uint16(p * wp.float16(100.0)))
    oi[i, 4] = wp.int64(int(h))
    oi[i, 5] = wp.int64(wp.uint32(p))
    oi[i, 6] = wp.int64(h * wp.float16(300.0))
    oi[i, 7] = wp.int64(wp.uint64(p * wp.float16(64.0)))
