# A kernel whose only matrix operation is wp.inverse of a constructed matrix: kern's C and
# OpenCL once called a zero-matrix helper there that was never declared.
# kern-test: inverse_alone --dim 2 om='zeros(mat33,2)' o2='zeros(mat22d,2)'
# kern-check: om
# kern-check: o2
import warp as wp


@wp.kernel
def inverse_alone(om: wp.array(dtype=wp.mat33), o2: wp.array(dtype=wp.mat22d)):
    i = wp.tid()
    om[i] = wp.inverse(wp.mat33(2.0, 0.0, 0.0, 0.0, 4.0, 0.0, 0.0, 0.0, float(i) * 8.0))
    o2[i] = wp.inverse(wp.mat22d(wp.float64(i), wp.float64(1.0), wp.float64(2.0), wp.float64(4.0)))
