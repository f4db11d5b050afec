# kern gradcheck kernels (gradcheck.sh): wp.svd3, svd2, qr3 and eig3 in
# float64, whose adjoints (Warp's closed formulas, Note [linalg adjoints]
# in src/ir/adjoint.c) are the derivatives where the singular values and
# eigenvalues are distinct; eig3's only for symmetric changes of A, so its
# kernel makes A symmetric.
import warp as wp


@wp.kernel
def svd3k(m: wp.array(dtype=wp.mat33d), u: wp.array(dtype=wp.mat33d), s: wp.array(dtype=wp.vec3d), v: wp.array(dtype=wp.mat33d)):
    i = wp.tid()
    A = m[i] + wp.mat33d(3.0, 0.2, 0.0, -0.1, 1.0, 0.3, 0.4, 0.0, -2.0)
    U, sigma, V = wp.svd3(A)
    u[i] = U
    s[i] = sigma
    v[i] = V


@wp.kernel
def svd2k(m: wp.array(dtype=wp.mat22d), u: wp.array(dtype=wp.mat22d), s: wp.array(dtype=wp.vec2d), v: wp.array(dtype=wp.mat22d)):
    i = wp.tid()
    A = m[i] + wp.mat22d(2.0, 0.3, -0.2, -1.0)
    U, sigma, V = wp.svd2(A)
    u[i] = U
    s[i] = sigma
    v[i] = V


@wp.kernel
def qr3k(m: wp.array(dtype=wp.mat33d), q: wp.array(dtype=wp.mat33d), r: wp.array(dtype=wp.mat33d)):
    i = wp.tid()
    A = m[i] + wp.mat33d(2.0, 0.2, 0.0, -0.1, 1.5, 0.3, 0.4, 0.0, -1.2)
    Q, R = wp.qr3(A)
    q[i] = Q
    r[i] = R


@wp.kernel
def eig3k(m: wp.array(dtype=wp.mat33d), q: wp.array(dtype=wp.mat33d), d: wp.array(dtype=wp.vec3d)):
    i = wp.tid()
    A = m[i] + wp.transpose(m[i]) + wp.mat33d(4.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, -3.0)
    Q, e = wp.eig3(A)
    q[i] = Q
    d[i] = e
