# Autodiff of vectors and matrices of float16: operators, dot, cross,
# length, normalize, a matrix-vector product, transpose and components,
# computed in half precision as Warp's adjoint is (each operation rounded).
# kern-test: half_vec --adjoint --dim 8 v='rand(vec3h,8,seed=1)' m='rand(mat33h,8,seed=2)' out='zeros(float16,8)' vout='zeros(vec3h,8)' adj_v='zeros(vec3h,8)' adj_m='zeros(mat33h,8)' adj_out='ones(float16,8)' adj_vout='rand(vec3h,8,seed=3)'
# why: Warp computes a float16 vector's adjoint in float16; kern's agrees within half precision
# kern-check: adj_v rtol=2e-3 atol=2e-3
# kern-check: adj_m rtol=2e-3 atol=2e-3
import warp as wp


@wp.kernel
def half_vec(v: wp.array(dtype=wp.vec3h), m: wp.array(dtype=wp.mat33h), out: wp.array(dtype=wp.float16), vout: wp.array(dtype=wp.vec3h)):
    i = wp.tid()
    a = v[i] * wp.float16(0.5) + wp.vec3h(wp.float16(0.25), wp.float16(-0.5), wp.float16(1.0))
    M = m[i] * wp.float16(0.5)
    b = M * a
    out[i] = wp.dot(a, b) + wp.length(a) + M[1, 2] * a[0]
    vout[i] = wp.normalize(a) + wp.cross(a, b) + wp.transpose(M) @ a
