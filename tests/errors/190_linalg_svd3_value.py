# expect: 11:15: error: wp.svd3() returns 3 values; unpack them (U, sigma, V = wp.svd3(A)) or pass output variables as a statement (wp.svd3(A, U, sigma, V))
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=wp.mat33)):
    i = wp.tid()
    m = a[i]
    u = wp.mat33()
    s = wp.vec3()
    a[i] = wp.svd3(m)
