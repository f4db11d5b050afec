# Explicit casts between integer types (truncation, sign extension, zero extension).
# kern-test: int_casts --dim 6 x='arange(int32,6)' ol='zeros(int64,6,6)' ou='zeros(uint32,6,2)'
# kern-check: ol
# kern-check: ou
import warp as wp


@wp.kernel
def int_casts(x: wp.array(dtype=wp.int32), ol: wp.array2d(dtype=wp.int64), ou: wp.array2d(dtype=wp.uint32)):
    i = wp.tid()
    v = x[i] * 100 - 250        # -250 .. 250
    ol[i, 0] = wp.int64(wp.int8(v))
    ol[i, 1] = wp.int64(wp.uint8(v))
    ol[i, 2] = wp.int64(wp.int16(v * 300))
    ol[i, 3] = wp.int64(wp.uint16(v))
    ol[i, 4] = wp.int64(wp.uint32(v))
    ol[i, 5] = wp.int64(wp.uint64(wp.int64(v)) >> wp.uint64(60))
    ou[i, 0] = wp.uint32(v)
    ou[i, 1] = wp.uint32(wp.int64(v) * wp.int64(100000000))
