# expect: 8:12: error: wp.vector() takes scalar components, got vec3
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    w = wp.vec3(1.0, 2.0, 3.0)
    v = wp.vector(w, w)
