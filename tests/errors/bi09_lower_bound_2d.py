# expect: 8:27: error: the first argument of wp.lower_bound() must be a 1-d array of scalars, got vec3
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    b = wp.lower_bound(wp.vec3(), 1.0)
