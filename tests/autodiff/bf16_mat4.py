# Autodiff of the 4x4 wp.determinant and wp.inverse of a bfloat16 matrix
# (a module-level wp.types.matrix type; Note [4x4 inverse] in
# src/ir/expand.c), each bfloat16 product and difference rounded.
# kern-test: bf16_mat4 --adjoint --dim 8 v='rand(float32,8,16,seed=1)' out='zeros(float32,8)' adj_v='zeros(float32,8,16)' adj_out='ones(float32,8)'
# kern-skip: vulkan-llvmpipe (passes on lavapipe, 2026-11-29, but too slowly for CI: 64 s on a shared 2-core machine at load 6, the float32 bi_mat4.py 11 s)
# why: the values are Warp's bit for bit; Warp computes the adjoint in bfloat16 (8 bits of mantissa), kern through the expansion's operations: they differ by a few bfloat16 ulps
# kern-check: adj_v rtol=1e-2 atol=1e-2
import warp as wp

mat44bf = wp.types.matrix(shape=(4, 4), dtype=wp.bfloat16)


@wp.kernel
def bf16_mat4(v: wp.array2d(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    m = mat44bf(wp.bfloat16(v[i, 0] * 0.5 + 1.5), wp.bfloat16(v[i, 1] * 0.5), wp.bfloat16(v[i, 2] * 0.5), wp.bfloat16(v[i, 3] * 0.5), wp.bfloat16(v[i, 4] * 0.5), wp.bfloat16(v[i, 5] * 0.5 + 1.5), wp.bfloat16(v[i, 6] * 0.5), wp.bfloat16(v[i, 7] * 0.5), wp.bfloat16(v[i, 8] * 0.5), wp.bfloat16(v[i, 9] * 0.5), wp.bfloat16(v[i, 10] * 0.5 + 1.5), wp.bfloat16(v[i, 11] * 0.5), wp.bfloat16(v[i, 12] * 0.5), wp.bfloat16(v[i, 13] * 0.5), wp.bfloat16(v[i, 14] * 0.5), wp.bfloat16(v[i, 15] * 0.5 + 1.5))
    n = wp.inverse(m)
    out[i] = wp.float32(wp.determinant(m) + n[0, 1] + n[2, 3] * wp.bfloat16(2.0))
