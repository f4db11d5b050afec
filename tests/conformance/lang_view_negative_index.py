# Negative indices with sub-arrays: a[-1] of a 2-d array is its last row, a[i][-2],
# a[-1, -1], b[-1] of a 3-d array a 2-d plane indexed with negative indices, and a
# run-time negative row index.
# kern-test: lang_view_negative_index --dim 3 a='rand(float,4,5,seed=1021)' b='rand(int32,2,3,4,seed=1022)' out='zeros(float,3,6)'
# kern-check: out
import warp as wp


@wp.kernel
def lang_view_negative_index(a: wp.array2d(dtype=float), b: wp.array3d(dtype=int), out: wp.array2d(dtype=float)):
    i = wp.tid()
    last = a[-1]
    out[i, 0] = last[i] + last[-1 - i]
    out[i, 1] = a[i][-2]
    out[i, 2] = a[-1, -1] - a[3, 4]
    pl = b[-1]
    out[i, 3] = float(pl[-1, -1 - i] + pl[i - 3, 0])
    r = a[-1 - i]
    out[i, 4] = r[0] + float(len(r))
    out[i, 5] = float(b[-2][-i - 1][-4])
