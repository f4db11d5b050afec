# expect: 8:48: error: slice() takes three integer constants: start, stop and step
import warp as wp


@wp.kernel
def k(a: wp.array2d[float], out: wp.array2d[float]):
    t = wp.tile_load(a, shape=(6, 8))
    wp.tile_store(out, wp.tile_view(t, offset=(slice(0, 2),)))  # Warp's slice() takes three
