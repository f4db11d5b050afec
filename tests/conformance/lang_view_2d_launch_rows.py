# A 2-d launch where each thread takes the row view of its first index and a column
# slice of its second, reduces them through @wp.func, and writes its own element; views
# of views (a row of a block) included.
# kern-test: lang_view_2d_launch_rows --dim 3,4 a='rand(float,3,4,seed=1141)' out='zeros(float,3,4)'
# kern-check: out
import warp as wp


@wp.func
def wsum(r: wp.array(dtype=float)) -> float:
    s = float(0.0)
    for k in range(len(r)):
        s += r[k] * float(k + 1)
    return s


@wp.kernel
def lang_view_2d_launch_rows(a: wp.array2d(dtype=float), out: wp.array2d(dtype=float)):
    i, j = wp.tid()
    row = a[i]
    col = a[:, j]
    blk = a[1:, 1:]
    sub = blk[i % 2]
    out[i, j] = wsum(row) * 100.0 + wsum(col) * 10.0 + wsum(sub) + row[j] * col[i]
