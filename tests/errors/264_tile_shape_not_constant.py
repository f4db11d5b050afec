# expect: 8:32: error: wp.tile_load(): the shape must be an integer constant (the tile's shape is known when the kernel is compiled)
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float), n: int):
    i = wp.tid()
    t = wp.tile_load(a, shape=(n,), offset=i * 16)
    wp.tile_store(a, t, offset=i * 16)
