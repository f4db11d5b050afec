# wp.qr3 on float32 matrices, both forms (Q, R = wp.qr3(A) and
# wp.qr3(A, Q, R)): random matrices, an upper triangular one with a
# negative pivot, a singular one (zero first column: Warp's epsilon keeps
# the rotation finite), a permutation and the zero matrix.
# kern-test: linalg_qr3 --dim 10 a='rand(mat33,10,seed=35)' oq='zeros(mat33,10)' orr='zeros(mat33,10)' oq2='zeros(mat33,10)' orr2='zeros(mat33,10)'
# kern-check: oq
# kern-check: orr
# kern-check: oq2
# kern-check: orr2
import warp as wp


@wp.kernel
def linalg_qr3(a: wp.array(dtype=wp.mat33), oq: wp.array(dtype=wp.mat33), orr: wp.array(dtype=wp.mat33),
               oq2: wp.array(dtype=wp.mat33), orr2: wp.array(dtype=wp.mat33)):
    i = wp.tid()
    m = a[i] - wp.mat33(0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5)
    if i == 0:
        m = wp.mat33(-2.0, 1.0, 3.0, 0.0, 4.0, -1.0, 0.0, 0.0, 0.5)
    if i == 1:
        m = wp.mat33(0.0, 1.0, 2.0, 0.0, 3.0, 4.0, 0.0, 5.0, 6.0)
    if i == 2:
        m = wp.mat33(0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0)
    if i == 3:
        m = wp.mat33()
    Q, R = wp.qr3(m)
    oq[i] = Q
    orr[i] = R
    q = wp.mat33()
    r = wp.mat33()
    wp.qr3(wp.transpose(m), q, r)
    oq2[i] = q
    orr2[i] = r
