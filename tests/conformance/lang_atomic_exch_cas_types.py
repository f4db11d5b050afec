# wp.atomic_exch and wp.atomic_cas on int32, int64, uint32, uint64, float32 and float64,
# one slot per thread so old values are known: a successful and a failing
# compare-and-swap, and an exchange, with their return values stored.
# kern-test: lang_atomic_exch_cas_types --dim 6 ai='rand(int32,6,seed=1211)' al='rand(int64,6,seed=1212)' au='rand(uint32,6,seed=1213)' aul='rand(uint64,6,seed=1214)' af='rand(float,6,seed=1215)' ad='rand(float64,6,seed=1216)' out='zeros(float64,6,12)'
# kern-check: ai
# kern-check: al
# kern-check: au
# kern-check: aul
# kern-check: af
# kern-check: ad
# kern-check: out
import warp as wp


@wp.kernel
def lang_atomic_exch_cas_types(ai: wp.array(dtype=wp.int32), al: wp.array(dtype=wp.int64), au: wp.array(dtype=wp.uint32),
                               aul: wp.array(dtype=wp.uint64), af: wp.array(dtype=float),
                               ad: wp.array(dtype=wp.float64), out: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    out[i, 0] = wp.float64(wp.atomic_exch(ai, i, i * 7))
    out[i, 1] = wp.float64(wp.atomic_cas(ai, i, i * 7, -i))
    out[i, 2] = wp.float64(wp.atomic_exch(al, i, wp.int64(i) * wp.int64(10000000000)))
    out[i, 3] = wp.float64(wp.atomic_cas(al, i, wp.int64(5), wp.int64(6)))
    out[i, 4] = wp.float64(wp.atomic_cas(au, i, au[i], wp.uint32(4000000000)))
    out[i, 5] = wp.float64(wp.atomic_exch(au, i, wp.uint32(i)))
    out[i, 6] = wp.float64(wp.atomic_exch(aul, i, wp.uint64(18000000000000000000)))
    out[i, 7] = wp.float64(wp.atomic_cas(aul, i, wp.uint64(1), wp.uint64(2)))
    out[i, 8] = wp.float64(wp.atomic_exch(af, i, float(i) * 0.5))
    out[i, 9] = wp.float64(wp.atomic_cas(af, i, float(i) * 0.5, -1.0))
    out[i, 10] = wp.atomic_exch(ad, i, wp.float64(i) * wp.float64(0.25))
    out[i, 11] = wp.atomic_cas(ad, i, wp.float64(99.0), wp.float64(1.0))
