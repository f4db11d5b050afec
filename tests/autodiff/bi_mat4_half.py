# Autodiff of the 4x4 wp.determinant and wp.inverse of float16 matrices
# (Note [4x4 inverse] in src/ir/expand.c: Warp's minors and cofactors,
# partly in double, each float16 product and difference rounded), with a
# singular matrix (a zero last row) in thread 0, whose inverse is zero.
# kern-test: bi_mat4_half --adjoint --dim 8 m='rand(mat44h,8,seed=7)' out='zeros(float16,8,3)' adj_m='zeros(mat44h,8)' adj_out='ones(float16,8,3)'
# kern-skip: vulkan-llvmpipe (passes on lavapipe, 2026-11-29, but too slowly for CI: 153 s on a shared 2-core machine at load 6.6, the float32 bi_mat4.py 11 s)
# why: the values are Warp's bit for bit; Warp's adjoints (the cofactors, -inv^T g inv^T) are computed in float16, kern's through the expansion's operations: they differ by a few float16 ulps
# kern-check: adj_m rtol=2e-3 atol=2e-3
import warp as wp


@wp.kernel
def bi_mat4_half(m: wp.array(dtype=wp.mat44h), out: wp.array2d(dtype=wp.float16)):
    i = wp.tid()
    h = wp.float16(0.5)
    k = wp.float16(float(wp.min(i, 1)))
    b = m[i] * h + wp.diag(wp.vec4h(wp.float16(1.0), wp.float16(1.5), wp.float16(1.25), wp.float16(2.0)))
    w = wp.mat44h(wp.float16(1.0), wp.float16(2.0), wp.float16(-1.0), wp.float16(0.5),
                  wp.float16(0.25), wp.float16(1.0), wp.float16(3.0), wp.float16(-2.0),
                  wp.float16(1.5), wp.float16(-0.5), wp.float16(1.0), wp.float16(2.0),
                  wp.float16(-1.0), wp.float16(0.75), wp.float16(0.5), wp.float16(1.0))
    o = wp.float16(1.0)
    c = wp.cw_mul(b, wp.mat44h(o, o, o, o, o, o, o, o, o, o, o, o, k, k, k, k))
    out[i, 0] = wp.determinant(b) * h
    out[i, 1] = wp.ddot(wp.inverse(b), w)
    out[i, 2] = wp.determinant(c) * h + wp.ddot(wp.inverse(c), w)
