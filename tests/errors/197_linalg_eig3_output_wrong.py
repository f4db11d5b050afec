# expect: 11:16: error: output 1 of wp.eig3() must be a mat33, but 's' is a vec3
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=wp.mat33)):
    i = wp.tid()
    m = a[i]
    u = wp.mat33()
    s = wp.vec3()
    wp.eig3(m, s, u)
