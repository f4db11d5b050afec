# Arrays of matrices: read, write whole, write one entry a[i][r, c], 2-d array of mat22d.
# kern-test: array_of_mat --dim 3 a='arange(mat33,3)' g='rand(mat22d,3,2,seed=19)' out='zeros(mat33,3)' og='zeros(mat22d,3,2)'
# kern-check: out
# kern-check: og
import warp as wp


@wp.kernel
def array_of_mat(a: wp.array(dtype=wp.mat33), g: wp.array2d(dtype=wp.mat22d), out: wp.array(dtype=wp.mat33),
                 og: wp.array2d(dtype=wp.mat22d)):
    i = wp.tid()
    out[i] = a[i] * 0.5
    out[i][2, 0] = a[i][0, 2] + a[i][1, 1]
    og[i, 0] = g[i, 1] + g[i, 0]
    og[i, 1] = g[i, 0] * wp.float64(2.0)
