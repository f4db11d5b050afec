# wp.svd3 on float32 matrices, in both of Warp's forms: the tuple
# (U, sigma, V = wp.svd3(A)) and the statement that writes its output
# variables (wp.svd3(A, U, sigma, V)).  Warp's answer is one of many
# (signs of singular vectors, how far 4 Jacobi sweeps get), so this pins
# its signs and order: random matrices, a diagonal one with unsorted and
# negative entries, a near-singular one (third row almost the sum of the
# others), a rank-one one, the zero matrix and a reflection.
# kern-test: linalg_svd3 --dim 10 a='rand(mat33,10,seed=31)' ou='zeros(mat33,10)' os='zeros(vec3,10)' ov='zeros(mat33,10)' ou2='zeros(mat33,10)' os2='zeros(vec3,10)' ov2='zeros(mat33,10)'
# kern-check: ou
# kern-check: os
# kern-check: ov
# kern-check: ou2
# kern-check: os2
# kern-check: ov2
import warp as wp


@wp.func
def pick(i: int, r: wp.mat33) -> wp.mat33:
    m = r - wp.mat33(0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5)
    if i == 0:
        m = wp.mat33(2.0, 0.0, 0.0, 0.0, -3.0, 0.0, 0.0, 0.0, 0.5)
    if i == 1:
        m = wp.mat33(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 5.0, 7.0, 9.001)
    if i == 2:
        m = wp.mat33(1.0, 2.0, 3.0, 2.0, 4.0, 6.0, -1.0, -2.0, -3.0)
    if i == 3:
        m = wp.mat33()
    if i == 4:
        m = wp.mat33(1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, -1.0)
    return m


@wp.kernel
def linalg_svd3(a: wp.array(dtype=wp.mat33), ou: wp.array(dtype=wp.mat33), os: wp.array(dtype=wp.vec3),
                ov: wp.array(dtype=wp.mat33), ou2: wp.array(dtype=wp.mat33), os2: wp.array(dtype=wp.vec3),
                ov2: wp.array(dtype=wp.mat33)):
    i = wp.tid()
    m = pick(i, a[i])
    U, sigma, V = wp.svd3(m)
    ou[i] = U
    os[i] = sigma
    ov[i] = V
    u = wp.mat33()
    s = wp.vec3()
    v = wp.mat33()
    wp.svd3(m * 2.0, u, s, v)
    ou2[i] = u
    os2[i] = s
    ov2[i] = v
