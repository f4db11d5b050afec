# expect: 8:12: error: wp.vector() of length 4 is given a vector of length 3
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    v = wp.vec3(1.0, 2.0, 3.0)
    u = wp.vector(v, length=4)
