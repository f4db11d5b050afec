# expect: 8:12: error: wp.vec3() takes 3 components, got 2
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    v = wp.vec3(1.0, 2.0)
