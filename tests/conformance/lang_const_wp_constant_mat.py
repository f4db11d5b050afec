# wp.constant of matrices (mat22, mat33, mat44d): matrix-vector and matrix-matrix
# products with kernel values, entries read by index, transpose of a constant.
# kern-test: lang_const_wp_constant_mat --dim 4 v='rand(vec3,4,seed=141)' m='rand(mat22,4,seed=142)' ov='zeros(vec3,4)' om='zeros(mat22,4)' od='zeros(float64,4)'
# kern-check: ov
# kern-check: om
# kern-check: od
import warp as wp

ROT = wp.constant(wp.mat33(0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0))
SHEAR = wp.constant(wp.mat22(1.0, 0.5, 0.0, 1.0))
SCALE4 = wp.constant(wp.mat44d(2.0, 0.0, 0.0, 0.0, 0.0, 3.0, 0.0, 0.0, 0.0, 0.0, 4.0, 0.0, 0.0, 0.0, 0.0, 1.0))


@wp.kernel
def lang_const_wp_constant_mat(v: wp.array(dtype=wp.vec3), m: wp.array(dtype=wp.mat22), ov: wp.array(dtype=wp.vec3),
                               om: wp.array(dtype=wp.mat22), od: wp.array(dtype=wp.float64)):
    i = wp.tid()
    ov[i] = ROT * v[i] + wp.transpose(ROT) * v[i] * ROT[2, 2]
    om[i] = SHEAR * m[i] - m[i] * SHEAR
    p = wp.vec4d(wp.float64(v[i][0]), wp.float64(v[i][1]), wp.float64(v[i][2]), wp.float64(1.0))
    q = SCALE4 * p
    od[i] = q[0] + q[1] * wp.float64(10.0) + q[2] * wp.float64(100.0) + SCALE4[3, 3]
