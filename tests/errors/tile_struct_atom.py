# expect: 14:8: error: wp.tile_atomic_add(): atomic addition to an array of vec3i is not supported yet (kern's atomics on vectors and matrices are of floats)
import warp as wp


@wp.struct
class S:
    x: float
    v: wp.vec3i


@wp.kernel
def k(a: wp.array(dtype=S)):
    t = wp.tile_load(a, shape=4)
    wp.tile_atomic_add(a, t)
