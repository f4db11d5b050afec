# expect: 8:15: error: wp.untile is not supported yet (issue #24)
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = wp.untile(wp.tile_ones(shape=1, dtype=float))
