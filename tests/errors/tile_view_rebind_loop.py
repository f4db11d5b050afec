# expect: 12:9: error: 't' is bound again inside a loop where its view 'v' is kept in step with it (Note [tile views in place]): kern copies views, so this is not supported yet (issue #24)
import warp as wp


@wp.kernel
def k(a: wp.array2d(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(a, shape=(4, 4))
    v = t[0]
    for j in range(2):
        v += wp.tile_ones(shape=4, dtype=float)
        t = wp.tile_zeros(shape=(4, 4), dtype=float)
    wp.tile_store(a, t)
