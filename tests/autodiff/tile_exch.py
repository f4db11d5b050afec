# Autodiff of the block exchanges wp.tile(x) and wp.untile(t) (Note
# [exchange adjoints] in src/ir/adjoint.c): a scalar, a vector, a matrix
# and a vector kept whole (preserve_type=True) gathered from the block's
# threads, combined across the block by a sum and read back per thread.
# Each thread's x gets its lane's slot of the tile's adjoint, as Warp
# 1.19's adj_tile gives it, and untile's adjoint is added into that slot.
# The goldens are Warp's on the CPU (a block is one thread); on OpenCL
# blocks of 4 threads exchange for real, checked against finite
# differences by tile_exch_gpu.sh.
# kern-test: tile_exch --adjoint --tiled --dim 3 --block-dim 1 a='rand(float64,3,seed=71)' v='rand(vec3d,3,seed=72)' m='rand(mat22d,3,seed=73)' out='zeros(float64,3)' out2='zeros(vec3d,3)' out3='zeros(mat22d,3)' adj_a='zeros(float64,3)' adj_v='zeros(vec3d,3)' adj_m='zeros(mat22d,3)' adj_out='rand(float64,3,seed=74)' adj_out2='rand(vec3d,3,seed=75)' adj_out3='rand(mat22d,3,seed=76)'
# kern-skip: vulkan-llvmpipe (tile adjoints build too slowly on lavapipe for CI, as tile_elementwise.py says)
# kern-check: adj_a
# kern-check: adj_v
# kern-check: adj_m
import warp as wp


@wp.kernel
def tile_exch(a: wp.array(dtype=wp.float64), v: wp.array(dtype=wp.vec3d),
              m: wp.array(dtype=wp.mat22d), out: wp.array(dtype=wp.float64),
              out2: wp.array(dtype=wp.vec3d), out3: wp.array(dtype=wp.mat22d)):
    i, j = wp.tid()
    k = i * wp.block_dim() + j
    x = a[k] * a[k]
    t = wp.tile(x)
    s = wp.tile_sum(wp.tile_map(wp.sin, t))
    y = v[k] * x
    u = wp.tile(y)
    w = wp.tile(v[k] + y, preserve_type=True)
    mm = m[k] * a[k]
    tm = wp.tile(mm)
    out[k] = wp.untile(t * t) * wp.tile_extract(s, 0)
    out2[k] = wp.untile(wp.tile_map(wp.sin, u)) + wp.untile(w * x)
    out3[k] = wp.untile(tm * tm) + m[k]
