# expect: 11:22: error: output 3 of wp.svd3() must be a mat33, but 'a' is a array(dtype=mat33)
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=wp.mat33)):
    i = wp.tid()
    m = a[i]
    u = wp.mat33()
    s = wp.vec3()
    wp.svd3(m, u, s, a)
