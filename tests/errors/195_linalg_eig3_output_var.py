# expect: 11:22: error: output 2 of wp.eig3() must be a variable that already holds a vec3 (for example wp.vec3())
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=wp.mat33)):
    i = wp.tid()
    m = a[i]
    u = wp.mat33()
    s = wp.vec3()
    wp.eig3(m, u, wp.vec3())
