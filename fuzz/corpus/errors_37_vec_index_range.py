# expect: 9:14: error: vector index 3 is out of range for 3 components
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    v = wp.vec3(1.0, 2.0, 3.0)
    a[i] = v[3]
