# wp.constant of 64-bit scalars (wp.int64 beyond int32, wp.float64 with more precision
# than float32, wp.uint64) and a plain Python int that still fits int32, combined with
# kernel values of the same types.
# kern-test: lang_const_int64_float64 --dim 4 k='rand(int64,4,seed=171)' x='rand(float64,4,seed=172)' ok='zeros(int64,4)' ox='zeros(float64,4)' ou='zeros(uint64,4)'
# kern-check: ok
# kern-check: ox
# kern-check: ou
import warp as wp

BIG = wp.constant(wp.int64(1 << 40))
FINE = wp.constant(wp.float64(1.0000000001))
UBIG = wp.constant(wp.uint64(18000000000000000000))
SMALL = 123456


@wp.kernel
def lang_const_int64_float64(k: wp.array(dtype=wp.int64), x: wp.array(dtype=wp.float64),
                             ok: wp.array(dtype=wp.int64), ox: wp.array(dtype=wp.float64),
                             ou: wp.array(dtype=wp.uint64)):
    i = wp.tid()
    ok[i] = k[i] * BIG + wp.int64(SMALL)
    ox[i] = x[i] * FINE - x[i]
    ou[i] = UBIG + wp.uint64(k[i])
