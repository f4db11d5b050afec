# wp.indexedarray2d: both dimensions indexed, rows only, columns only
# (":" leaves a dimension as it is), shape of the indexed view, atomics.
# Every thread reads and updates its own element of b (the rows are
# distinct): a read of an element another thread adds to would race on a GPU.
# enable_backward=False: Warp 1.19's adjoint of atomic_min/max on an
# indexed array does not compile.
# kern-test: indexed_2d --dim 3,2 a='indexed(rand(float32,4,5,seed=3);[3,0,2];[4,1])' b='indexed(rand(float64,4,2,seed=4);[1,0,3])' c='indexed(rand(int32,3,6,seed=5);:;[5,0])' out='zeros(float32,3,2)' sh='zeros(int32,6)'
# kern-check: out
# kern-check: b
# kern-check: c
# kern-check: sh
import warp as wp


@wp.kernel(enable_backward=False)
def indexed_2d(
    a: wp.indexedarray2d(dtype=float),
    b: wp.indexedarray(dtype=wp.float64, ndim=2),
    c: wp.indexedarray[wp.int32, 2],
    out: wp.array2d(dtype=float),
    sh: wp.array(dtype=int),
):
    i, j = wp.tid()
    out[i, j] = a[i, j] + float(b[i, j]) + float(c[i, j])
    c[i, j] = c[i, j] * 3 + i
    wp.atomic_max(c, i, j, 150)
    wp.atomic_min(c, i, j, 280)
    if i == 2 and j == 1:
        sh[0] = a.shape[0]
        sh[1] = a.shape[1]
        sh[2] = b.shape[0]
        sh[3] = b.shape[1]
        sh[4] = c.shape[0]
        sh[5] = c.shape[1]
    wp.atomic_add(b, i, j, wp.float64(0.5))
