# wp.array2d: row sums in a loop over a.shape[1], int64 elements.
# kern-test: array2d --dim 5 a='rand(int64,5,7,seed=15)' rows='zeros(int64,5)' t='zeros(int64,7,5)'
# kern-check: rows
# kern-check: t
import warp as wp


@wp.kernel
def array2d(a: wp.array2d(dtype=wp.int64), rows: wp.array(dtype=wp.int64), t: wp.array2d(dtype=wp.int64)):
    i = wp.tid()
    s = wp.int64(0)
    for j in range(a.shape[1]):
        s += a[i, j]
        t[j, i] = a[i, j] * wp.int64(j + 1)
    rows[i] = s
