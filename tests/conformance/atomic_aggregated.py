# Same-address atomics whose result is unused: kern aggregates them (per
# thread, warp, block or chunk, then one atomic).  Values are exact in float32
# so the result does not depend on the order of the additions.
# kern-test: atomic_aggregated --dim 1000 x='arange(float32,1000)' xi='arange(int32,1000)' xl='arange(int64,1000)' s='zeros(float32,1)' d='full(float32,1,1000000)' lo='full(float32,1,5000)' hi='zeros(float32,1)' ilo='full(int32,1,5000)' ihi='zeros(int64,2)' n='zeros(uint32,3)'
# kern-check: s
# kern-check: d
# kern-check: lo
# kern-check: hi
# kern-check: ilo
# kern-check: ihi
# kern-check: n
import warp as wp


@wp.kernel
def atomic_aggregated(x: wp.array(dtype=wp.float32), xi: wp.array(dtype=wp.int32), xl: wp.array(dtype=wp.int64),
                      s: wp.array(dtype=wp.float32), d: wp.array(dtype=wp.float32),
                      lo: wp.array(dtype=wp.float32), hi: wp.array(dtype=wp.float32),
                      ilo: wp.array(dtype=wp.int32), ihi: wp.array(dtype=wp.int64), n: wp.array(dtype=wp.uint32)):
    i = wp.tid()
    wp.atomic_add(s, 0, x[i])
    wp.atomic_sub(d, 0, x[i])
    wp.atomic_min(lo, 0, x[i] + 3.0)
    wp.atomic_max(hi, 0, x[i] * 2.0)
    wp.atomic_min(ilo, 0, xi[i] - 7)
    wp.atomic_max(ihi, 1, xl[i] * wp.int64(3))
    if i % 3 == 0:
        wp.atomic_add(n, 2, wp.uint32(1))
