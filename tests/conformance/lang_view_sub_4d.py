# Sub-arrays of a 4-d array: a[i] is 3-d, a[i, j] is 2-d, a[i, j, k] is 1-d, each
# indexed, sliced further and measured; a store through the 2-d view.
# kern-test: lang_view_sub_4d --dim 2 a='rand(float64,2,3,2,4,seed=421)' out='zeros(float64,2,6)'
# kern-check: out
# kern-check: a
import warp as wp


@wp.kernel
def lang_view_sub_4d(a: wp.array4d(dtype=wp.float64), out: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    cube = a[i]
    sq = a[i, 1]
    ln = a[i, 2, 1]
    out[i, 0] = cube[2, 1, 3] + sq[0, 0]
    out[i, 1] = wp.float64(cube.shape[0] * 100 + sq.shape[1] * 10 + len(ln))
    s = wp.float64(0.0)
    for k in range(ln.shape[0]):
        s += ln[k]
    out[i, 2] = s
    out[i, 3] = cube[1][0][2]
    sq[1, 3] = s
    out[i, 4] = a[i, 1, 1, 3]
    out[i, 5] = wp.float64(cube.ndim + sq.ndim + ln.ndim)
