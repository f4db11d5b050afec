# wp.svd3 on float64 matrices (8 Jacobi sweeps), both forms: random
# matrices, a diagonal one with unsorted and negative entries, a
# near-singular one, a rank-one one and a reflection.
# kern-test: linalg_svd3_f64 --dim 8 a='rand(mat33d,8,seed=32)' ou='zeros(mat33d,8)' os='zeros(vec3d,8)' ov='zeros(mat33d,8)' os2='zeros(vec3d,8)'
# kern-check: ou
# kern-check: os
# kern-check: ov
# kern-check: os2
import warp as wp


@wp.kernel
def linalg_svd3_f64(a: wp.array(dtype=wp.mat33d), ou: wp.array(dtype=wp.mat33d), os: wp.array(dtype=wp.vec3d),
                    ov: wp.array(dtype=wp.mat33d), os2: wp.array(dtype=wp.vec3d)):
    i = wp.tid()
    h = wp.float64(0.5)
    m = a[i] - wp.mat33d(h, h, h, h, h, h, h, h, h)
    if i == 0:
        m = wp.mat33d(wp.float64(0.25), wp.float64(0.0), wp.float64(0.0), wp.float64(0.0), wp.float64(4.0),
                      wp.float64(0.0), wp.float64(0.0), wp.float64(0.0), wp.float64(-2.0))
    if i == 1:
        m = wp.mat33d(wp.float64(1.0), wp.float64(2.0), wp.float64(3.0), wp.float64(4.0), wp.float64(5.0),
                      wp.float64(6.0), wp.float64(5.0), wp.float64(7.0), wp.float64(9.0000001))
    if i == 2:
        m = wp.mat33d(wp.float64(1.0), wp.float64(-2.0), wp.float64(0.5), wp.float64(2.0), wp.float64(-4.0),
                      wp.float64(1.0), wp.float64(3.0), wp.float64(-6.0), wp.float64(1.5))
    if i == 3:
        m = wp.mat33d(wp.float64(0.0), wp.float64(1.0), wp.float64(0.0), wp.float64(1.0), wp.float64(0.0),
                      wp.float64(0.0), wp.float64(0.0), wp.float64(0.0), wp.float64(1.0))
    U, sigma, V = wp.svd3(m)
    ou[i] = U
    os[i] = sigma
    ov[i] = V
    u = wp.mat33d()
    s = wp.vec3d()
    v = wp.mat33d()
    wp.svd3(wp.transpose(m), u, s, v)
    os2[i] = s
