# Tiles through wp.launch_tiled: a block loads a tile, reduces it and
# stores it back scaled; tile_matmul of two small matrices.
import numpy as np

import kern.warp as wp

RESULT = {}

TILE = 16


@wp.kernel
def tile_scale(x: wp.array(dtype=float), y: wp.array(dtype=float),
               sums: wp.array(dtype=float)):
    i, j = wp.tid()
    t = wp.tile_load(x, shape=TILE, offset=i * TILE)
    s = wp.tile_sum(t)
    wp.tile_store(y, t * 2.0, offset=i * TILE)
    wp.tile_atomic_add(sums, s)


@wp.kernel
def tile_mm(a: wp.array2d(dtype=float), b: wp.array2d(dtype=float),
            c: wp.array2d(dtype=float)):
    i, j = wp.tid()
    ta = wp.tile_load(a, shape=(4, 4))
    tb = wp.tile_load(b, shape=(4, 4))
    tc = wp.tile_matmul(ta, tb)
    wp.tile_store(c, tc)


n = 4 * TILE + 5  # the last tile runs past the array's end
x = wp.from_numpy(np.arange(n, dtype=np.float32) * 0.5, dtype=wp.float32)
y = wp.zeros(n, dtype=wp.float32)
sums = wp.zeros(1, dtype=wp.float32)
wp.launch_tiled(tile_scale, dim=[(n + TILE - 1) // TILE], inputs=[x, y, sums],
                block_dim=64)
a = wp.from_numpy(np.arange(16, dtype=np.float32).reshape(4, 4), dtype=wp.float32)
b = wp.from_numpy(np.eye(4, dtype=np.float32) * 3.0 + 1.0, dtype=wp.float32)
c = wp.zeros((4, 4), dtype=wp.float32)
wp.launch_tiled(tile_mm, dim=[1], inputs=[a, b, c], block_dim=32)
RESULT["y"] = y.numpy().tolist()
RESULT["sums"] = sums.numpy().tolist()
RESULT["c"] = c.numpy().tolist()
