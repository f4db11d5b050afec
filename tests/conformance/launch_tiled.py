# wp.launch_tiled(dim=[2, 3], block_dim=64): the grid is [2, 3, block_dim]
# (block_dim resolves to 1 on Warp's CPU), and `i, j = wp.tid()` is the
# block's coordinates; every thread of a block writes the same values.
# kern-test: launch_tiled --dim 2,3 --tiled --block-dim 64 out='zeros(int,2,3)'
# kern-check: out
import warp as wp


@wp.kernel
def launch_tiled(out: wp.array2d(dtype=int)):
    i, j = wp.tid()
    out[i, j] = i * 10 + j + 1
