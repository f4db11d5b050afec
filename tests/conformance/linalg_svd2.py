# wp.svd2 on float32 matrices, both forms: random matrices, a diagonal
# one, a scaled rotation (equal singular values: Warp's discriminant-zero
# branch gives U = V = I), a rank-one one (second singular value 0), a
# reflection and the zero matrix.
# kern-test: linalg_svd2 --dim 10 a='rand(mat22,10,seed=33)' ou='zeros(mat22,10)' os='zeros(vec2,10)' ov='zeros(mat22,10)' ou2='zeros(mat22,10)' os2='zeros(vec2,10)' ov2='zeros(mat22,10)'
# kern-check: ou
# kern-check: os
# kern-check: ov
# kern-check: ou2
# kern-check: os2
# kern-check: ov2
import warp as wp


@wp.kernel
def linalg_svd2(a: wp.array(dtype=wp.mat22), ou: wp.array(dtype=wp.mat22), os: wp.array(dtype=wp.vec2),
                ov: wp.array(dtype=wp.mat22), ou2: wp.array(dtype=wp.mat22), os2: wp.array(dtype=wp.vec2),
                ov2: wp.array(dtype=wp.mat22)):
    i = wp.tid()
    m = a[i] - wp.mat22(0.5, 0.5, 0.5, 0.5)
    if i == 0:
        m = wp.mat22(0.5, 0.0, 0.0, -3.0)
    if i == 1:
        m = wp.mat22(3.0, 4.0, -4.0, 3.0)
    if i == 2:
        m = wp.mat22(1.0, 2.0, 2.0, 4.0)
    if i == 3:
        m = wp.mat22(0.0, 1.0, 1.0, 0.0)
    if i == 4:
        m = wp.mat22()
    U, sigma, V = wp.svd2(m)
    ou[i] = U
    os[i] = sigma
    ov[i] = V
    u = wp.mat22()
    s = wp.vec2()
    v = wp.mat22()
    wp.svd2(m * 3.0, u, s, v)
    ou2[i] = u
    os2[i] = s
    ov2[i] = v
