# Negative indices on a 2-d array: each index wraps by its own dimension.
# kern-test: array_negative_index_2d --dim 3 a='rand(int32,3,4,seed=20)' out='zeros(int32,3,2)'
# kern-check: out
import warp as wp


@wp.kernel
def array_negative_index_2d(a: wp.array2d(dtype=wp.int32), out: wp.array2d(dtype=wp.int32)):
    i = wp.tid()
    out[i, 0] = a[-1, -1 - i]
    out[i, 1] = a[i - 3, -4]
