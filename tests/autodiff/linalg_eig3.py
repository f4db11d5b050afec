# Autodiff of wp.eig3 (Warp's closed-form adjoint, Note [linalg adjoints]
# in src/ir/adjoint.c), float32, on symmetric matrices with distinct
# eigenvalues, both results' adjoints seeded.
# kern-test: linalg_eig3 --adjoint --dim 8 m='rand(mat33,8,seed=3)' q='zeros(mat33,8)' d='zeros(vec3,8)' adj_m='zeros(mat33,8)' adj_q='rand(mat33,8,seed=4)' adj_d='rand(vec3,8,seed=5)'
# why: sums of products of Q, float32
# kern-check: adj_m rtol=1e-4 atol=1e-4
import warp as wp


@wp.kernel
def linalg_eig3(m: wp.array(dtype=wp.mat33), q: wp.array(dtype=wp.mat33), d: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    B = m[i] * 0.25
    A = B + wp.transpose(B) + wp.mat33(3.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, -1.5)
    Q, e = wp.eig3(A)
    q[i] = Q
    d[i] = e
