# Autodiff of wp.svd3 (Warp's closed-form adjoint from U, sigma and V,
# Note [linalg adjoints] in src/ir/adjoint.c), float32, on matrices with
# distinct singular values, every result's adjoint seeded.
# kern-test: linalg_svd3 --adjoint --dim 8 m='rand(mat33,8,seed=3)' u='zeros(mat33,8)' s='zeros(vec3,8)' v='zeros(mat33,8)' adj_m='zeros(mat33,8)' adj_u='rand(mat33,8,seed=4)' adj_s='rand(vec3,8,seed=5)' adj_v='rand(mat33,8,seed=6)'
# why: sums of products of the decomposition's results, float32
# kern-check: adj_m rtol=1e-4 atol=1e-4
import warp as wp


@wp.kernel
def linalg_svd3(m: wp.array(dtype=wp.mat33), u: wp.array(dtype=wp.mat33), s: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.mat33)):
    i = wp.tid()
    A = m[i] * 0.5 + wp.mat33(3.0, 0.2, 0.0, -0.1, 1.5, 0.3, 0.4, 0.0, -0.6)
    U, sigma, V = wp.svd3(A)
    u[i] = U
    s[i] = sigma
    v[i] = V
