# expect: 11:8: error: wp.svd3() takes the matrix and 3 output variables, got 3 arguments (or unpack its results: U, sigma, V = wp.svd3(A))
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=wp.mat33)):
    i = wp.tid()
    m = a[i]
    u = wp.mat33()
    s = wp.vec3()
    wp.svd3(m, u, s)
