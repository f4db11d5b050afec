# wp.atomic_add and wp.atomic_sub on every scalar type Warp has atomics for (int32,
# uint32, int64, uint64, float32, float64), many threads onto few elements: the totals
# do not depend on thread order (float inputs are small integers, so sums are exact).
# kern-test: lang_atomic_add_types --dim 16 k='rand(int32,16,seed=641)' ai='zeros(int32,4)' au='zeros(uint32,4)' al='zeros(int64,4)' aul='zeros(uint64,4)' af='zeros(float,4)' ad='zeros(float64,4)'
# kern-check: ai
# kern-check: au
# kern-check: al
# kern-check: aul
# kern-check: af
# kern-check: ad
import warp as wp


@wp.kernel
def lang_atomic_add_types(k: wp.array(dtype=int), ai: wp.array(dtype=wp.int32), au: wp.array(dtype=wp.uint32),
                          al: wp.array(dtype=wp.int64), aul: wp.array(dtype=wp.uint64),
                          af: wp.array(dtype=float), ad: wp.array(dtype=wp.float64)):
    i = wp.tid()
    j = i % 4
    v = k[i]
    wp.atomic_add(ai, j, v)
    wp.atomic_sub(ai, (j + 1) % 4, i)
    wp.atomic_add(au, j, wp.uint32(v))
    wp.atomic_sub(au, j, wp.uint32(1))
    wp.atomic_add(al, j, wp.int64(v) * wp.int64(1000000000))
    wp.atomic_sub(al, 3 - j, wp.int64(i))
    wp.atomic_add(aul, j, wp.uint64(v) << wp.uint64(33))
    wp.atomic_add(af, j, float(v))
    wp.atomic_sub(af, 3 - j, 0.5)
    wp.atomic_add(ad, j, wp.float64(v) * wp.float64(0.25))
