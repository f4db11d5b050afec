# wp.array4d and wp.array(dtype=T, ndim=4): 4-d indexing and 4-d tid.
# kern-test: array4d --dim 2,2,3,2 a='rand(int32,2,2,3,2,seed=16)' b='zeros(int32,2,2,3,2)' out='zeros(int32,2,2,3,2)'
# kern-check: out
# kern-check: b
import warp as wp


@wp.kernel
def array4d(a: wp.array4d(dtype=wp.int32), b: wp.array(dtype=wp.int32, ndim=4), out: wp.array4d(dtype=wp.int32)):
    i, j, k, l = wp.tid()
    out[i, j, k, l] = a[i, j, k, l] * 1000 + i * 100 + j * 10 + k + l * a.shape[3]
    b[i, j, k, l] = a[1 - i, 1 - j, 2 - k, 1 - l] + a.shape[0] + a.shape[1] + a.shape[2]
