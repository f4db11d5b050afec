# expect: 11:26: error: wp.svd3() takes a 3x3 matrix, got mat22
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=wp.mat33)):
    i = wp.tid()
    m = a[i]
    u = wp.mat33()
    s = wp.vec3()
    u, s, v = wp.svd3(wp.mat22())
