# wp.svd2 on float64 matrices, both forms: random matrices, a diagonal
# one, a scaled rotation (equal singular values) and a rank-one one.
# kern-test: linalg_svd2_f64 --dim 8 a='rand(mat22d,8,seed=34)' ou='zeros(mat22d,8)' os='zeros(vec2d,8)' ov='zeros(mat22d,8)' os2='zeros(vec2d,8)'
# kern-check: ou
# kern-check: os
# kern-check: ov
# kern-check: os2
import warp as wp


@wp.kernel
def linalg_svd2_f64(a: wp.array(dtype=wp.mat22d), ou: wp.array(dtype=wp.mat22d), os: wp.array(dtype=wp.vec2d),
                    ov: wp.array(dtype=wp.mat22d), os2: wp.array(dtype=wp.vec2d)):
    i = wp.tid()
    h = wp.float64(0.5)
    m = a[i] - wp.mat22d(h, h, h, h)
    if i == 0:
        m = wp.mat22d(wp.float64(-2.0), wp.float64(0.0), wp.float64(0.0), wp.float64(0.125))
    if i == 1:
        m = wp.mat22d(wp.float64(0.6), wp.float64(-0.8), wp.float64(0.8), wp.float64(0.6))
    if i == 2:
        m = wp.mat22d(wp.float64(1.0), wp.float64(-3.0), wp.float64(-2.0), wp.float64(6.0))
    U, sigma, V = wp.svd2(m)
    ou[i] = U
    os[i] = sigma
    ov[i] = V
    u = wp.mat22d()
    s = wp.vec2d()
    v = wp.mat22d()
    wp.svd2(wp.transpose(m), u, s, v)
    os2[i] = s
