# Tiles (issue #24): dtype=A.dtype in a tile constructor of a generic
# kernel (Warp's tiled GEMM test writes wp.tile_zeros(..., dtype=A.dtype)),
# here instantiated for float64 arrays, and dtype=type(x) of a value.
# kern-test: tile_dtype_of --dim 2 --tiled --block-dim 32 a='rand(float64,8,6,seed=51)' b='rand(float64,6,4,seed=52)' c='zeros(float64,8,4)'
# kern-check: c
import warp as wp
from typing import Any


@wp.kernel
def tile_dtype_of(a: wp.array2d(dtype=Any), b: wp.array2d(dtype=Any), c: wp.array2d(dtype=Any)):
    i = wp.tid()
    acc = wp.tile_zeros(shape=(4, 4), dtype=a.dtype)
    for k in range(2):
        x = wp.tile_load(a, shape=(4, 3), offset=(i * 4, k * 3))
        y = wp.tile_load(b, shape=(3, 4), offset=(k * 3, 0))
        wp.tile_matmul(x, y, acc)
    one = a[0, 0] * c.dtype(2.0)
    wp.tile_store(c, acc + wp.tile_ones(shape=(4, 4), dtype=type(one)), offset=(i * 4, 0))
