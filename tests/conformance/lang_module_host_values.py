# Module-level values Warp computes on the host (issue #24, Warp's tile
# examples): a vector constant whose components are host expressions
# (Python's true division, then the vector's scalar type), a length= from
# wp.constant arithmetic on another wp.constant, and names bound by a
# tuple assignment (a dtype among them).
# kern-test: module_host_values --dim 3 out='zeros(float64,3,4)' n='zeros(int32,3)'
# kern-check: out
# kern-check: n
import numpy as np

import warp as wp

TILE_N = 128
scale = wp.vec2d(wp.float64(1 / TILE_N), wp.float64(3 / 8))
NUM_FREQ = wp.constant(2)
DIM_IN = wp.constant(4 * NUM_FREQ - 5)
np_type, wp_type = np.float64, wp.float64
K, M = 3, 2 * 5


@wp.kernel
def module_host_values(out: wp.array2d(dtype=wp_type), n: wp.array(dtype=int)):
    i = wp.tid()
    v = wp.types.vector(dtype=wp_type, length=DIM_IN)
    v[i] = wp_type(i + K)
    out[i, 0] = scale[0]
    out[i, 1] = scale[1]
    out[i, 2] = v[0] + v[1] + v[2]
    out[i, 3] = wp_type(M) / wp_type(i + 1)
    n[i] = wp.static(DIM_IN) * 10 + K
