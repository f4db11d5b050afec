# expect: 8:34: error: tile index 2 is out of range for axis 0 of length 2
import warp as wp


@wp.kernel
def k(a: wp.array2d[float], out: wp.array2d[float]):
    t = wp.tile_load(a, shape=(6, 8))
    wp.tile_store(out[0], t[1:3][2])  # rows 1 and 2 of t, then row 2 of those
