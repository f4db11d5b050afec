# wp.eig3 on float32 matrices, both forms (Q, d = wp.eig3(A) and
# wp.eig3(A, Q, d)): random symmetric matrices, a diagonal one (unsorted
# eigenvalues stay in place), one with a repeated eigenvalue, a singular
# one, and a matrix that is not symmetric (Warp reads its lower triangle
# for the iteration but all of it for d).
# kern-test: linalg_eig3 --dim 10 a='rand(mat33,10,seed=37)' oq='zeros(mat33,10)' od='zeros(vec3,10)' oq2='zeros(mat33,10)' od2='zeros(vec3,10)'
# kern-check: oq
# kern-check: od
# kern-check: oq2
# kern-check: od2
import warp as wp


@wp.kernel
def linalg_eig3(a: wp.array(dtype=wp.mat33), oq: wp.array(dtype=wp.mat33), od: wp.array(dtype=wp.vec3),
                oq2: wp.array(dtype=wp.mat33), od2: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    r = a[i]
    m = r + wp.transpose(r) - wp.mat33(1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0)
    if i == 0:
        m = wp.mat33(3.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 2.0)
    if i == 1:
        m = wp.mat33(2.0, 1.0, 0.0, 1.0, 2.0, 0.0, 0.0, 0.0, 3.0)
    if i == 2:
        m = wp.mat33(1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0)
    if i == 3:
        m = wp.mat33(1.0, 5.0, 0.0, 0.5, 2.0, 7.0, 0.25, -1.0, 3.0)
    Q, d = wp.eig3(m)
    oq[i] = Q
    od[i] = d
    q = wp.mat33()
    e = wp.vec3()
    wp.eig3(m * 0.5, q, e)
    oq2[i] = q
    od2[i] = e
