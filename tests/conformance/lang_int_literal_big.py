# Integer literals beyond int32 in kernels: a bare literal is an int32 constant that
# wraps (3000000000, 0xFFFFFFFF, 4294967296 + 5), while wp.int64(...), wp.uint32(...)
# and wp.uint64(...) of a big literal are exact; mixed with run-time values.
# kern-test: lang_int_literal_big --dim 4 k='rand(int32,4,seed=721)' out='zeros(int64,4,8)' of='zeros(float,4,2)'
# kern-check: out
# kern-check: of
import warp as wp


@wp.kernel
def lang_int_literal_big(k: wp.array(dtype=int), out: wp.array2d(dtype=wp.int64), of: wp.array2d(dtype=float)):
    i = wp.tid()
    v = k[i]
    out[i, 0] = wp.int64(3000000000 + v)
    out[i, 1] = wp.int64(0xFFFFFFFF * v)
    out[i, 2] = wp.int64(4294967301 - v)
    out[i, 3] = wp.int64(5000000000) + wp.int64(v)
    out[i, 4] = wp.int64(wp.uint32(4000000000) + wp.uint32(v))
    out[i, 5] = wp.int64(wp.uint64(18446744073709551615) - wp.uint64(v))
    out[i, 6] = wp.int64(int(0x80000000) + v)
    out[i, 7] = wp.int64(-2147483648 + v)
    of[i, 0] = float(4294967295) * float(v)
    of[i, 1] = float(2147483648 + v)
