# expect: 8:72: error: wp.tile_view(): shape cannot be given when offset has slices (the slices give the view's shape)
import warp as wp


@wp.kernel
def k(a: wp.array2d[float], out: wp.array2d[float]):
    t = wp.tile_load(a, shape=(6, 8))
    wp.tile_store(out, wp.tile_view(t, offset=(slice(0, 2, 1),), shape=(2, 8)))
