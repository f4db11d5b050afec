# expect: 11:5: error: wp.svd3() returns 3 values, but 2 targets are given
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=wp.mat33)):
    i = wp.tid()
    m = a[i]
    u = wp.mat33()
    s = wp.vec3()
    u, s = wp.svd3(m)
