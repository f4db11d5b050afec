# expect: 11:22: error: wp.qr3() of a mat33h is not supported yet (float32 and float64 are)
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=wp.mat33)):
    i = wp.tid()
    m = a[i]
    u = wp.mat33()
    s = wp.vec3()
    q, r = wp.qr3(wp.mat33h())
