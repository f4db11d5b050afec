# expect: 9:12: error: wp.tile_matmul(): the shapes tile(dtype=float32, shape=(4, 3)) and tile(dtype=float32, shape=(4, 3)) do not multiply (a's columns must be b's rows)
import warp as wp


@wp.kernel
def k(a: wp.array2d(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(a, shape=(4, 3))
    c = wp.tile_matmul(t, t)
    wp.tile_store(a, c)
