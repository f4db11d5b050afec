# expect: 9:8: error: a value of type vec3 cannot be used as a condition
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    v = wp.vec3(1.0, 2.0, 3.0)
    if v:
        pass
