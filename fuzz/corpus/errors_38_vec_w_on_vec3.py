# expect: 9:14: error: a vec3 has no component 'w'
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    v = wp.vec3(1.0, 2.0, 3.0)
    a[i] = v.w
