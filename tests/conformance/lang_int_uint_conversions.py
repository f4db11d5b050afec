# Conversions between signed and unsigned integer widths with run-time values that do
# not fit: int32 to uint8/uint16/uint32/uint64 (wrap), uint32 to int32 (two's
# complement), uint64 to int64, int64 to int32 (truncation), and back to float.
# kern-test: lang_int_uint_conversions --dim 6 k='rand(int32,6,seed=1151)' out='zeros(int64,6,8)'
# kern-check: out
import warp as wp


@wp.kernel
def lang_int_uint_conversions(k: wp.array(dtype=int), out: wp.array2d(dtype=wp.int64)):
    i = wp.tid()
    v = (k[i] - 50) * 40000000
    out[i, 0] = wp.int64(wp.uint8(v))
    out[i, 1] = wp.int64(wp.uint16(v))
    out[i, 2] = wp.int64(wp.uint32(v))
    out[i, 3] = wp.int64(wp.uint64(v))
    u = wp.uint32(k[i]) * wp.uint32(50000000)
    out[i, 4] = wp.int64(wp.int32(u))
    ul = wp.uint64(k[i]) * wp.uint64(200000000000000000)
    out[i, 5] = wp.int64(ul)
    l = wp.int64(v) * wp.int64(1000)
    out[i, 6] = wp.int64(wp.int32(l))
    out[i, 7] = wp.int64(float(wp.uint16(v)) * 2.0)
