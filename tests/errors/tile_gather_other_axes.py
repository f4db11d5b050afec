# expect: 9:31: error: a tile subscript with an index tile takes ':' on every other axis, as Warp's (t[idx, :]); subscript the gathered tile for a part of it
import warp as wp


@wp.kernel
def k(a: wp.array2d[float], out: wp.array2d[float]):
    t = wp.tile_load(a, shape=(6, 8))
    idx = wp.tile_arange(0, 4, dtype=int)
    wp.tile_store(out, t[idx, 2:6])  # gather, then t[idx][:, 2:6]
