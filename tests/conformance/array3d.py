# wp.array3d: 3-d indexing, 3-d tid, all three shape entries.
# kern-test: array3d --dim 2,3,4 a='arange(float64,24)' out='zeros(float64,2,3,4)' sh='zeros(int32,3)'
# kern-check: out
# kern-check: sh
import warp as wp


@wp.kernel
def array3d(a: wp.array(dtype=wp.float64), out: wp.array3d(dtype=wp.float64), sh: wp.array(dtype=wp.int32)):
    i, j, k = wp.tid()
    flat = (i * out.shape[1] + j) * out.shape[2] + k
    out[i, j, k] = a[flat] * wp.float64(0.5) + wp.float64(i * 100 + j * 10 + k)
    if flat == 0:
        sh[0] = out.shape[0]
        sh[1] = out.shape[1]
        sh[2] = out.shape[2]
