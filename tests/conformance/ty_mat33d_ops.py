# 3x3 float64 matrices (mat33d): products, inverse, determinant, transpose,
# skew and outer, quat_to_matrix with a quatd, a matrix built row by row in
# a loop, and wp.mul of matrix and vector.
# kern-test: ty_mat33d_ops --dim 8 a='rand(mat33d,8,seed=166)' om='zeros(mat33d,8,3)' ov='zeros(vec3d,8,2)' s='zeros(float64,8,2)'
# kern-check: om
# kern-check: ov
# kern-check: s
import warp as wp


@wp.kernel
def ty_mat33d_ops(a: wp.array(dtype=wp.mat33d), om: wp.array2d(dtype=wp.mat33d), ov: wp.array2d(dtype=wp.vec3d),
                  s: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    m = a[i] + wp.identity(n=3, dtype=wp.float64)
    n = wp.mat33d()
    for r in range(3):
        n[r] = m[(r + 1) % 3] * wp.float64(r + 1)
    om[i, 0] = wp.mul(m, n)
    om[i, 1] = wp.inverse(m)
    om[i, 2] = wp.skew(m[0]) + wp.outer(m[1], m[2]) - wp.transpose(n)
    v = wp.vec3d(wp.float64(1.0), wp.float64(-0.5), wp.float64(i))
    ov[i, 0] = wp.mul(m, v)
    ov[i, 1] = v * n
    s[i, 0] = wp.determinant(m)
    s[i, 1] = wp.determinant(n) + wp.trace(m)
