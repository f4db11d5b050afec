# Comparisons < <= > >= == != and chained comparisons, on ints and floats; bool results.
# kern-test: ops_compare --dim 8 x='arange(int32,8)' f='rand(float32,8,seed=26)' out='zeros(bool,8,8)'
# kern-check: out
import warp as wp


@wp.kernel
def ops_compare(x: wp.array(dtype=wp.int32), f: wp.array(dtype=wp.float32), out: wp.array2d(dtype=wp.bool)):
    i = wp.tid()
    k = x[i]
    out[i, 0] = k < 4
    out[i, 1] = k <= 4
    out[i, 2] = k > 4
    out[i, 3] = k >= 4
    out[i, 4] = k == 4
    out[i, 5] = k != 4
    out[i, 6] = 2 <= k < 6
    out[i, 7] = 0.2 < f[i] <= 0.8 < 1.0
