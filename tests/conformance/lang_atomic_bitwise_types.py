# wp.atomic_and, atomic_or and atomic_xor on int32, uint32, int64 and uint64 arrays
# (order-independent), with the per-thread return value of atomic_or checked on
# private slots, and &=, |=, ^= on array elements (atomic in Warp).
# kern-test: lang_atomic_bitwise_types --dim 16 k='rand(int32,16,seed=681)' ai='full(int32,3,-1)' au='zeros(uint32,3)' al='zeros(int64,3)' aul='full(uint64,3,255)' priv='rand(int32,16,seed=682)' out='zeros(int32,16)'
# kern-check: ai
# kern-check: au
# kern-check: al
# kern-check: aul
# kern-check: priv
# kern-check: out
import warp as wp


@wp.kernel
def lang_atomic_bitwise_types(k: wp.array(dtype=int), ai: wp.array(dtype=wp.int32), au: wp.array(dtype=wp.uint32),
                              al: wp.array(dtype=wp.int64), aul: wp.array(dtype=wp.uint64),
                              priv: wp.array(dtype=int), out: wp.array(dtype=int)):
    i = wp.tid()
    b = k[i]
    wp.atomic_and(ai, 0, ~(1 << (b % 31)))
    wp.atomic_or(ai, 1, 1 << (i % 8))
    wp.atomic_xor(ai, 2, b)
    wp.atomic_or(au, i % 3, wp.uint32(1) << wp.uint32(b % 32))
    wp.atomic_xor(al, i % 3, wp.int64(b) << wp.int64(20))
    wp.atomic_and(aul, i % 3, ~(wp.uint64(1) << wp.uint64(i % 8)))
    out[i] = wp.atomic_or(priv, i, 256)
    ai[1] |= 1 << 20
    au[2] ^= wp.uint32(i)
    al[0] &= wp.int64(-2)
