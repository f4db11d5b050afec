# Autodiff of the scatters wp.tile_scatter_add and tile_scatter_masked
# (Note [exchange adjoints] in src/ir/adjoint.c): each thread's value
# added to (written at) an element of a shared tile when has_value; its
# gradient is that element's adjoint (the masked write's element passes
# no gradient to what it overwrote), as Warp 1.19's adj_tile_scatter_add
# and adj_tile_scatter_masked give it.  The goldens are Warp's on the CPU
# (a block is one thread); on OpenCL blocks of 4 threads exchange for
# real, checked against finite differences by tile_exch_gpu.sh.
# kern-test: tile_exch_scatter --adjoint --tiled --dim 4 --block-dim 1 a='rand(float64,4,seed=81)' out='zeros(float64,32)' adj_a='zeros(float64,4)' adj_out='rand(float64,32,seed=82)'
# kern-skip: vulkan-llvmpipe (tile adjoints build too slowly on lavapipe for CI, as tile_elementwise.py says)
# kern-check: adj_a
import warp as wp


@wp.kernel
def tile_exch_scatter(a: wp.array(dtype=wp.float64), out: wp.array(dtype=wp.float64)):
    i, j = wp.tid()
    k = i * wp.block_dim() + j
    x = a[k]
    t = wp.tile_ones(shape=8, dtype=wp.float64, storage="shared")
    wp.tile_scatter_add(t, (k * 3 + 1) % 8, x * x, k % 3 != 1)
    u = wp.tile_map(wp.sin, t)
    wp.tile_scatter_masked(u, (k * 5 + 2) % 8, x * wp.float64(3.0), True)
    wp.tile_store(out, u * t, offset=i * 8)
