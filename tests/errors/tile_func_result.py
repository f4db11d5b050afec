# expect: 6:5: error: 'grow' returns tile(dtype=float32, shape=(2, 3)) here but is declared to return tile(dtype=float32, shape=(2, 2))
import warp as wp

@wp.func
def grow(t: wp.tile[float]) -> wp.tile[float, 2, 2]:
    return t * 2.0

@wp.kernel
def k(a: wp.array2d(dtype=float)):
    t = wp.tile_load(a, shape=(2, 3))
    wp.tile_store(a, grow(t))
