# expect: 11:28: error: argument 1 of twice() ('t') must be tile(dtype=float32, shape=(2, 2)), got tile(dtype=float32, shape=(2, 3))
import warp as wp

@wp.func
def twice(t: wp.tile[float, 2, 2]):
    return t * 2.0

@wp.kernel
def k(a: wp.array2d(dtype=float)):
    t = wp.tile_load(a, shape=(2, 3))
    wp.tile_store(a, twice(t))
