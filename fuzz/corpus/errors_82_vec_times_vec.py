# expect: 9:11: error: * of two vectors is not defined; use wp.dot(), wp.cross(), wp.outer() or wp.cw_mul()
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    v = wp.vec3(1.0, 2.0, 3.0)
    w = v * v
