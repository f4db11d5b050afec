# wp.inverse of singular matrices gives the zero matrix in Warp (kern once gave huge
# values): rank-deficient mat22, mat33 and mat44 in float32 and float64, built from
# run-time values; a regular matrix in the same kernel for contrast.
# kern-test: lang_wd_inverse_singular --dim 4 x='rand(float,4,seed=811)' o2='zeros(mat22,4)' o3='zeros(mat33,4)' o4='zeros(mat44d,4)' r2='zeros(mat22,4)'
# kern-check: o2
# kern-check: o3
# kern-check: o4
# kern-check: r2
import warp as wp


@wp.kernel
def lang_wd_inverse_singular(x: wp.array(dtype=float), o2: wp.array(dtype=wp.mat22), o3: wp.array(dtype=wp.mat33),
                             o4: wp.array(dtype=wp.mat44d), r2: wp.array(dtype=wp.mat22)):
    i = wp.tid()
    a = x[i] + 1.0
    o2[i] = wp.inverse(wp.mat22(a, 2.0 * a, 2.0, 4.0))
    r = wp.vec3(a, 2.0, float(i))
    o3[i] = wp.inverse(wp.mat33(r[0], r[1], r[2], r[0] * 2.0, r[1] * 2.0, r[2] * 2.0, 1.0, 0.0, 1.0))
    d = wp.float64(a)
    z = wp.float64(0.0)
    o4[i] = wp.inverse(wp.mat44d(d, z, z, z, z, z, z, z, z, z, d, z, z, z, z, d))
    r2[i] = wp.inverse(wp.mat22(a, 1.0, 0.0, 2.0))
