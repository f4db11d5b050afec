# wp.lower_bound on sorted int32 and float32 arrays,
# the whole array and a sub-range (start, end), values below, between, equal
# to and above the elements.
# kern-test: bi_lower_bound --dim 16 xi='arange(int32,16)' xf='arange(float32,16)' out='zeros(int32,16,5)'
# kern-check: out
import warp as wp


@wp.kernel
def bi_lower_bound(xi: wp.array(dtype=int), xf: wp.array(dtype=float), out: wp.array2d(dtype=int)):
    i = wp.tid()
    out[i, 0] = wp.lower_bound(xi, i * 3 // 2 - 3)
    out[i, 1] = wp.lower_bound(xf, float(i) * 1.3 - 2.25)
    out[i, 2] = wp.lower_bound(xi, 2, 12, i - 1)
    out[i, 3] = wp.lower_bound(xf, 4, 9, float(i) - 0.5)
    out[i, 4] = wp.lower_bound(xi, (i * 7) % 20)
