# Autodiff of vectors of bfloat16 (a module-level wp.types.vector type):
# operators, dot, length, normalize and components, computed in bfloat16
# as Warp's adjoint is (each operation rounded).
# kern-test: bf16_vec --adjoint --dim 8 v='rand(float32,8,3,seed=1)' out='zeros(float32,8)' adj_v='zeros(float32,8,3)' adj_out='ones(float32,8)'
# why: Warp computes a bfloat16 vector's adjoint in bfloat16 (8 bits of mantissa); kern's agrees within that
# kern-check: adj_v rtol=2e-2 atol=2e-2
import warp as wp

vec3bf = wp.types.vector(length=3, dtype=wp.bfloat16)


@wp.kernel
def bf16_vec(v: wp.array2d(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    a = vec3bf(wp.bfloat16(v[i, 0]), wp.bfloat16(v[i, 1]), wp.bfloat16(v[i, 2]))
    b = a * wp.bfloat16(0.5) + vec3bf(wp.bfloat16(0.25), wp.bfloat16(-0.5), wp.bfloat16(1.0))
    c = wp.normalize(b) * wp.length(a) + b
    out[i] = wp.float32(wp.dot(c, a) + c[1] * b[2])
