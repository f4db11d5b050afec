# wp.atomic_min and wp.atomic_max on int32, uint32, int64, uint64, float32 and float64
# arrays (results independent of thread order), on a 2-d array with two indices.
# kern-test: lang_atomic_min_max_types --dim 16 k='rand(int32,16,seed=651)' x='rand(float,16,seed=652)' mi='full(int32,2,50)' mu='full(uint32,2,50)' ml='full(int64,2,50)' mul='full(uint64,2,50)' mf='full(float,2,0.5)' md='full(float64,2,0.5)' m2='zeros(float,2,2)'
# kern-check: mi
# kern-check: mu
# kern-check: ml
# kern-check: mul
# kern-check: mf
# kern-check: md
# kern-check: m2
import warp as wp


@wp.kernel
def lang_atomic_min_max_types(k: wp.array(dtype=int), x: wp.array(dtype=float), mi: wp.array(dtype=wp.int32),
                              mu: wp.array(dtype=wp.uint32), ml: wp.array(dtype=wp.int64),
                              mul: wp.array(dtype=wp.uint64), mf: wp.array(dtype=float),
                              md: wp.array(dtype=wp.float64), m2: wp.array2d(dtype=float)):
    i = wp.tid()
    v = k[i] - 40
    wp.atomic_min(mi, 0, v)
    wp.atomic_max(mi, 1, v)
    wp.atomic_min(mu, 0, wp.uint32(k[i]))
    wp.atomic_max(mu, 1, wp.uint32(k[i]))
    wp.atomic_min(ml, 0, wp.int64(v) * wp.int64(10000000000))
    wp.atomic_max(ml, 1, wp.int64(v) * wp.int64(10000000000))
    wp.atomic_min(mul, 0, wp.uint64(k[i]))
    wp.atomic_max(mul, 1, wp.uint64(k[i]) << wp.uint64(40))
    wp.atomic_min(mf, 0, x[i] - 0.5)
    wp.atomic_max(mf, 1, x[i] * 2.0)
    wp.atomic_min(md, 0, wp.float64(x[i]))
    wp.atomic_max(md, 1, wp.float64(x[i]) + wp.float64(0.5))
    wp.atomic_max(m2, i % 2, (i // 2) % 2, x[i])
