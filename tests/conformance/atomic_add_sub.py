# wp.atomic_add / atomic_sub return the old value. Each thread owns its slot for the
# returned-value checks; shared totals use integers / exactly representable floats.
# kern-test: atomic_add_sub --dim 32 own='arange(int32,32)' ownf='arange(float64,32)' tot='zeros(int32,2)' totf='zeros(float32,1)' totl='zeros(uint64,1)' old='zeros(int32,32,2)' oldf='zeros(float64,32)'
# kern-check: own
# kern-check: ownf
# kern-check: tot
# kern-check: totf
# kern-check: totl
# kern-check: old
# kern-check: oldf
import warp as wp


@wp.kernel
def atomic_add_sub(own: wp.array(dtype=wp.int32), ownf: wp.array(dtype=wp.float64), tot: wp.array(dtype=wp.int32),
                   totf: wp.array(dtype=wp.float32), totl: wp.array(dtype=wp.uint64), old: wp.array2d(dtype=wp.int32),
                   oldf: wp.array(dtype=wp.float64)):
    i = wp.tid()
    old[i, 0] = wp.atomic_add(own, i, 100)
    old[i, 1] = wp.atomic_sub(own, i, 7)
    oldf[i] = wp.atomic_add(ownf, i, wp.float64(0.5))
    wp.atomic_add(tot, 0, i)
    wp.atomic_sub(tot, 1, i * 2)
    wp.atomic_add(totf, 0, 0.125)
    wp.atomic_add(totl, 0, wp.uint64(1) << wp.uint64(40))
