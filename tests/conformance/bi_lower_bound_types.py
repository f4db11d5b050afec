# wp.lower_bound on sorted int64, uint32 and float64 arrays with repeated
# values (the first of equal elements), whole and with (start, end).
# kern-test: bi_lower_bound_types --dim 16 xl='arange(int64,16)' xu='arange(uint32,16)' xd='arange(float64,16)' out='zeros(int32,16,5)'
# kern-check: out
import warp as wp


@wp.kernel
def bi_lower_bound_types(xl: wp.array(dtype=wp.int64), xu: wp.array(dtype=wp.uint32), xd: wp.array(dtype=wp.float64),
                         out: wp.array2d(dtype=int)):
    i = wp.tid()
    out[i, 0] = wp.lower_bound(xl, wp.int64(i * 5 // 4 - 2))
    out[i, 1] = wp.lower_bound(xu, wp.uint32(i * 3 // 2))
    out[i, 2] = wp.lower_bound(xd, wp.float64(i) * wp.float64(0.9) + wp.float64(0.5))
    out[i, 3] = wp.lower_bound(xl, 3, 11, wp.int64(i))
    out[i, 4] = wp.lower_bound(xd, 0, 8, wp.float64(i) - wp.float64(0.25))
