# wp.quat_from_matrix of mat33d and mat44d values in float64, through every
# branch of Warp's formula: rotations (trace positive) and matrices whose
# largest diagonal entry is the first, second and third.
# kern-test: ty_quat_from_matrix64 --dim 8 a='rand(float64,8,4,seed=109)' out='zeros(float64,8,16)'
# kern-check: out
import warp as wp


@wp.kernel
def ty_quat_from_matrix64(a: wp.array2d(dtype=wp.float64), out: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    h = wp.float64(0.5)
    q = wp.normalize(wp.quatd(a[i, 0] - h, a[i, 1] - h, a[i, 2] - h, a[i, 3] - h))
    m = wp.quat_to_matrix(q)
    q1 = wp.quat_from_matrix(m)
    x = a[i, 0]
    y = a[i, 1]
    q2 = wp.quat_from_matrix(wp.mat33d(wp.float64(2.0) + x, y, h, y, -h, x, h, x, -wp.float64(1.0)))
    q3 = wp.quat_from_matrix(wp.mat33d(-h, y, x, h, wp.float64(2.0) + y, x, y, x, -wp.float64(1.0)))
    z = wp.float64(0.0)
    o = wp.float64(1.0)
    q4 = wp.quat_from_matrix(wp.mat44d(-o, x, z, y, y, -h, x, z, z, x, wp.float64(3.0) + y, h, z, z, z, o))
    for k in range(4):
        out[i, k] = q1[k]
        out[i, 4 + k] = q2[k]
        out[i, 8 + k] = q3[k]
        out[i, 12 + k] = q4[k]
