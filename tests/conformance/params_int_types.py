# Scalar parameters of every integer type, including values that need the full width.
# kern-test: params_int_types --dim 2 a=-100 b=-30000 c=-2000000000 d=-9000000000000000000 e=200 f=65000 g=4000000000 h=18000000000000000000 ol='zeros(int64,2,4)' ou='zeros(uint64,2,4)'
# kern-check: ol
# kern-check: ou
import warp as wp


@wp.kernel
def params_int_types(a: wp.int8, b: wp.int16, c: wp.int32, d: wp.int64, e: wp.uint8, f: wp.uint16, g: wp.uint32,
                     h: wp.uint64, ol: wp.array2d(dtype=wp.int64), ou: wp.array2d(dtype=wp.uint64)):
    i = wp.tid()
    k = wp.int64(i)
    ol[i, 0] = wp.int64(a) + k
    ol[i, 1] = wp.int64(b) + k
    ol[i, 2] = wp.int64(c) * wp.int64(2) + k
    ol[i, 3] = d + k
    ou[i, 0] = wp.uint64(e) + wp.uint64(i)
    ou[i, 1] = wp.uint64(f)
    ou[i, 2] = wp.uint64(g) * wp.uint64(2)
    ou[i, 3] = h + wp.uint64(i)
