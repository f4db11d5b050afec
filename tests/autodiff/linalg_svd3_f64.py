# Autodiff of wp.svd3 (Warp's closed-form adjoint from U, sigma and V,
# Note [linalg adjoints] in src/ir/adjoint.c), float64, on matrices with
# distinct singular values, every result's adjoint seeded.
# kern-test: linalg_svd3_f64 --adjoint --dim 8 m='rand(mat33d,8,seed=3)' u='zeros(mat33d,8)' s='zeros(vec3d,8)' v='zeros(mat33d,8)' adj_m='zeros(mat33d,8)' adj_u='rand(mat33d,8,seed=4)' adj_s='rand(vec3d,8,seed=5)' adj_v='rand(mat33d,8,seed=6)'
# why: the same in float64 (8 Jacobi sweeps, eps 1e-12)
# kern-check: adj_m rtol=1e-9 atol=1e-9
# kern-skip: vulkan-llvmpipe (its adjoint, twelve float64 svd3 per thread, ran past 5 minutes of a CPU on lavapipe (2026-11-29) and was stopped: too long for CI; the time is LLVM's build of the shader (perf), not the run; the float32 file, the same code in float, passes there)
import warp as wp


@wp.kernel
def linalg_svd3_f64(m: wp.array(dtype=wp.mat33d), u: wp.array(dtype=wp.mat33d), s: wp.array(dtype=wp.vec3d), v: wp.array(dtype=wp.mat33d)):
    i = wp.tid()
    A = m[i] * wp.float64(0.5) + wp.mat33d(3.0, 0.2, 0.0, -0.1, 1.5, 0.3, 0.4, 0.0, -0.6)
    U, sigma, V = wp.svd3(A)
    u[i] = U
    s[i] = sigma
    v[i] = V
