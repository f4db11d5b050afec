# Warp 1.19 folds the launch dimensions after the ones wp.tid() unpacks:
# on a (2, 3, 5) grid, `i, j = wp.tid()` runs 5 threads per (i, j).  And
# wp.block_dim() with block_dim=1 (what Warp's CPU always runs).
# kern-test: launch_tid_fold --dim 2,3,5 --block-dim 1 out='zeros(int,6)' blk='zeros(int,1)'
# kern-check: out
# kern-check: blk
import warp as wp


@wp.kernel
def launch_tid_fold(out: wp.array(dtype=int), blk: wp.array(dtype=int)):
    i, j = wp.tid()
    wp.atomic_add(out, i * 3 + j, 1)
    blk[0] = wp.block_dim()
