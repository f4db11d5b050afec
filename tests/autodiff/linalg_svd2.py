# Autodiff of wp.svd2 (Warp's closed-form adjoint, Note [linalg adjoints]
# in src/ir/adjoint.c), float32, distinct singular values, every result's
# adjoint seeded; the statement form wp.svd2(A, U, sigma, V).
# kern-test: linalg_svd2 --adjoint --dim 8 m='rand(mat22,8,seed=3)' u='zeros(mat22,8)' s='zeros(vec2,8)' v='zeros(mat22,8)' adj_m='zeros(mat22,8)' adj_u='rand(mat22,8,seed=4)' adj_s='rand(vec2,8,seed=5)' adj_v='rand(mat22,8,seed=6)'
# why: sums of products of the decomposition's results, float32
# kern-check: adj_m rtol=1e-4 atol=1e-4
import warp as wp


@wp.kernel
def linalg_svd2(m: wp.array(dtype=wp.mat22), u: wp.array(dtype=wp.mat22), s: wp.array(dtype=wp.vec2), v: wp.array(dtype=wp.mat22)):
    i = wp.tid()
    A = m[i] * 0.5 + wp.mat22(2.0, 0.3, -0.2, 0.7)
    U = wp.mat22()
    sigma = wp.vec2()
    V = wp.mat22()
    wp.svd2(A, U, sigma, V)
    u[i] = U
    s[i] = sigma
    v[i] = V
