# Autodiff of tiles (Note [tile adjoints] in src/ir/adjoint.c) through
# wp.tile_assign into a tile of zeros at an offset, twice, the second
# overwriting part of the first (whose overwritten elements get no
# gradient), and a part assigned by a slice (t[2:4] = u); as Warp 1.19's
# tile adjoints differentiate them.
# kern-test: tile_assign --adjoint --tiled --dim 2 a='rand(float32,8,seed=111)' out='zeros(float32,16)' adj_a='zeros(float32,8)' adj_out='rand(float32,16,seed=112)'
# kern-skip: vulkan-llvmpipe (tile adjoints build too slowly on lavapipe for CI, as tile_elementwise.py says)
# kern-check: adj_a
import warp as wp


@wp.kernel
def tile_assign(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    t = wp.tile_load(a, shape=4, offset=i * 4)
    d = wp.tile_zeros(shape=8, dtype=float)
    wp.tile_assign(d, t * t, offset=(1,))
    wp.tile_assign(d, wp.tile_map(wp.sin, t), offset=(3,))
    d[0:2] = t[1:3] * 3.0
    wp.tile_store(out, d, offset=i * 8)
