# expect: 13:8: error: wp.tile_atomic_add(): atomic addition to an array of S is not supported yet (Warp adds a struct's fields one by one; kern has no atomics on fields, issue #24)
import warp as wp


@wp.struct
class S:
    x: float


@wp.kernel
def k(a: wp.array(dtype=S)):
    t = wp.tile_load(a, shape=4)
    wp.tile_atomic_add(a, t)
