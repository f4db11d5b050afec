# Autodiff through vectors and matrices (the expansion into scalar IR):
# loads and stores of vec3 and mat33, dot, cross, length, normalize,
# matrix-vector and matrix products, transpose, components.
# kern-test: vec_mat --adjoint --dim 4 v='arange(vec3,4)' m='arange(mat33,4)' out='zeros(float32,4)' vout='zeros(vec3,4)' adj_v='zeros(vec3,4)' adj_m='zeros(mat33,4)' adj_out='ones(float32,4)' adj_vout='full(vec3,4,0.5)'
# why: sums of products over a matrix, float32
# kern-check: adj_v rtol=1e-5 atol=1e-5
# kern-check: adj_m rtol=1e-5 atol=1e-5
import warp as wp


@wp.kernel
def vec_mat(v: wp.array(dtype=wp.vec3), m: wp.array(dtype=wp.mat33), out: wp.array(dtype=float), vout: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    a = v[i] * 0.1 + wp.vec3(0.5, -0.25, 1.0)
    M = m[i] * 0.01
    b = M * a
    c = wp.cross(a, b)
    out[i] = wp.dot(a, b) + wp.length(c) + M[1, 2] * a[0]
    vout[i] = wp.normalize(c) + wp.transpose(M) @ a + (M @ M) * b
