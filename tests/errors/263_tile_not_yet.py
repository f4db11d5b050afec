# expect: 10:8: error: wp.tile_sort is not supported yet (issue #24)
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float), b: wp.array(dtype=int)):
    i = wp.tid()
    t = wp.tile_load(a, shape=16, offset=i * 16)
    v = wp.tile_load(b, shape=16, offset=i * 16)
    wp.tile_sort(t, v)
    wp.tile_store(a, t, offset=i * 16)
