# Aggregated atomics (Note [atomic aggregation]) over a grid larger than one
# launch's invocations (the Vulkan backend runs 4096 groups of 64, CUDA a
# grid of SMs x resident blocks), so each invocation's partial covers many
# items before its subgroup or warp combines them: integer results, exact
# in any order.
# kern-test: atomic_aggregated_large --dim 1000003 n='zeros(int32,1)' s='zeros(int32,1)' lo='full(int32,1,1000000)' hi='zeros(int32,1)' su='zeros(uint32,1)'
# kern-check: n
# kern-check: s
# kern-check: lo
# kern-check: hi
# kern-check: su
import warp as wp


@wp.kernel
def atomic_aggregated_large(n: wp.array(dtype=wp.int32), s: wp.array(dtype=wp.int32),
                            lo: wp.array(dtype=wp.int32), hi: wp.array(dtype=wp.int32),
                            su: wp.array(dtype=wp.uint32)):
    i = wp.tid()
    wp.atomic_add(n, 0, 1)
    wp.atomic_add(s, 0, i % 7)
    wp.atomic_min(lo, 0, (i * 37) % 1000 + 5)
    wp.atomic_max(hi, 0, (i * 13) % 999983)
    wp.atomic_add(su, 0, wp.uint32(i % 3))
