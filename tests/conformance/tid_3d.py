# i, j, k = wp.tid() over a 3-d launch.
# kern-test: tid_3d --dim 2,3,4 out='zeros(int32,2,3,4)'
# kern-check: out
import warp as wp


@wp.kernel
def tid_3d(out: wp.array3d(dtype=wp.int32)):
    i, j, k = wp.tid()
    out[i, j, k] = i * 100 + j * 10 + k
