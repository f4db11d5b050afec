# wp.array(dtype=T, ndim=2): a[i, j], a.shape[0], a.shape[1], 2-d tid.
# kern-test: array_ndim2 --dim 4,6 a='rand(float32,4,6,seed=14)' out='zeros(float32,4,6)' sh='zeros(int32,4,6)'
# kern-check: out
# kern-check: sh
import warp as wp


@wp.kernel
def array_ndim2(a: wp.array(dtype=wp.float32, ndim=2), out: wp.array(dtype=wp.float32, ndim=2),
                sh: wp.array(dtype=wp.int32, ndim=2)):
    i, j = wp.tid()
    out[i, j] = a[i, j] + a[a.shape[0] - 1 - i, j] * 10.0
    sh[i, j] = a.shape[0] * 100 + a.shape[1]
