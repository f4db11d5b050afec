# Autodiff of wp.qr3 (Warp's closed-form adjoint, Note [linalg adjoints]
# in src/ir/adjoint.c), float32, both results' adjoints seeded.
# kern-test: linalg_qr3 --adjoint --dim 8 m='rand(mat33,8,seed=3)' q='zeros(mat33,8)' r='zeros(mat33,8)' adj_m='zeros(mat33,8)' adj_q='rand(mat33,8,seed=4)' adj_r='rand(mat33,8,seed=5)'
# why: sums of products of Q, R and R's inverse, float32
# kern-check: adj_m rtol=1e-4 atol=1e-4
import warp as wp


@wp.kernel
def linalg_qr3(m: wp.array(dtype=wp.mat33), q: wp.array(dtype=wp.mat33), r: wp.array(dtype=wp.mat33)):
    i = wp.tid()
    A = m[i] * 0.5 + wp.mat33(2.0, 0.2, 0.0, -0.1, 1.5, 0.3, 0.4, 0.0, -1.2)
    Q, R = wp.qr3(A)
    q[i] = Q
    r[i] = R
