# Sub-arrays of a 3-d array: a[i] is 2-d (indexed with two indices, .shape of both
# axes), a[i, j] is 1-d, a[i][j] is the same row; atomics through a sub-array.
# kern-test: lang_view_sub_3d --dim 3 a='rand(int32,3,4,5,seed=411)' out='zeros(int32,3,4)' cnt='zeros(int32,3,5)'
# kern-check: out
# kern-check: cnt
import warp as wp


@wp.kernel
def lang_view_sub_3d(a: wp.array3d(dtype=int), out: wp.array2d(dtype=int), cnt: wp.array2d(dtype=int)):
    i = wp.tid()
    plane = a[i]
    s = int(0)
    for j in range(plane.shape[0]):
        for k in range(plane.shape[1]):
            s += plane[j, k]
    out[i, 0] = s
    row = a[i, 2]
    out[i, 1] = row[0] * 1000 + row[4]
    out[i, 2] = a[i][3][1] - a[i, 3, 1]
    out[i, 3] = plane.shape[0] * 10 + plane.shape[1] + plane.ndim * 100
    c = cnt[i]
    for k in range(len(row)):
        wp.atomic_add(c, k, row[k] % 7)
