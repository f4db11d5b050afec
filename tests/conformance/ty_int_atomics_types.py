# Atomics on int64, uint32 and uint64 arrays (add, sub, min, max, and, or,
# xor) from every thread onto a few slots; results independent of order.
# kern-test: ty_int_atomics_types --dim 32 a='rand(int64,32,seed=200)' s64='zeros(int64,4)' u32='zeros(uint32,4)' u64='full(uint64,4,7)'
# kern-check: s64
# kern-check: u32
# kern-check: u64
import warp as wp


@wp.kernel
def ty_int_atomics_types(a: wp.array(dtype=wp.int64), s64: wp.array(dtype=wp.int64), u32: wp.array(dtype=wp.uint32),
                         u64: wp.array(dtype=wp.uint64)):
    i = wp.tid()
    v = (a[i] - wp.int64(50)) * wp.int64(10000000000)
    wp.atomic_add(s64, 0, v)
    wp.atomic_min(s64, 1, v)
    wp.atomic_max(s64, 2, v)
    wp.atomic_sub(s64, 3, v)
    w = wp.uint32(a[i]) * wp.uint32(100000000)
    wp.atomic_add(u32, 0, w)
    wp.atomic_max(u32, 1, w)
    wp.atomic_or(u32, 2, wp.uint32(1) << wp.uint32(i % 32))
    wp.atomic_xor(u32, 3, w)
    z = wp.uint64(a[i]) << wp.uint64(i)
    wp.atomic_sub(u64, 0, z)
    wp.atomic_min(u64, 1, z)
    wp.atomic_and(u64, 2, ~z)
    wp.atomic_add(u64, 3, z)
