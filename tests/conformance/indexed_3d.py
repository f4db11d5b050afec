# wp.indexedarray3d: element reads and `+=` (an atomic add, as in Warp)
# through index arrays, and a sub-array a[i] (a 2-d indexed array: the
# remaining dimensions keep their index arrays).  enable_backward=False:
# Warp 1.19 cannot build the adjoint of a @wp.func taking an indexed array.
# kern-test: indexed_3d --dim 2,3,2 a='indexed(rand(float32,3,4,5,seed=7);[2,0];[3,1,0];[4,2])' out='zeros(float32,2,3,2)' rows='zeros(float32,2)'
# kern-check: out
# kern-check: a
# kern-check: rows
import warp as wp


@wp.func
def row_sum(r: wp.indexedarray2d(dtype=float)):
    s = float(0.0)
    for j in range(r.shape[0]):
        for k in range(r.shape[1]):
            s += r[j, k]
    return s


@wp.kernel(enable_backward=False)
def indexed_3d(a: wp.indexedarray3d(dtype=float), out: wp.array3d(dtype=float), rows: wp.array(dtype=float)):
    i, j, k = wp.tid()
    out[i, j, k] = a[i, j, k] * 2.0 + a[i][j, k]
    if j == 0 and k == 0:
        rows[i] = row_sum(a[i])
    a[i, j, k] += 1.0
