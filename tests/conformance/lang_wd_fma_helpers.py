# Multiply-adds inside vector and matrix helpers (dot, cross, length, mat * vec,
# mat * mat, determinant, outer) on run-time data: Warp's CPU build may contract them
# into fused multiply-adds while kern does not; with inputs of one magnitude the
# difference stays inside the default float32 tolerance, as docs/WARP-DIALECT.md says.
# kern-test: lang_wd_fma_helpers --dim 8 a='rand(vec3,8,seed=881)' b='rand(vec3,8,seed=882)' m='rand(mat33,8,seed=883)' out='zeros(float,8,4)' ov='zeros(vec3,8,2)' om='zeros(mat33,8)'
# kern-check: out
# kern-check: ov
# kern-check: om
import warp as wp


@wp.kernel
def lang_wd_fma_helpers(a: wp.array(dtype=wp.vec3), b: wp.array(dtype=wp.vec3), m: wp.array(dtype=wp.mat33),
                        out: wp.array2d(dtype=float), ov: wp.array2d(dtype=wp.vec3), om: wp.array(dtype=wp.mat33)):
    i = wp.tid()
    out[i, 0] = wp.dot(a[i], b[i])
    out[i, 1] = wp.length(a[i] - b[i])
    out[i, 2] = wp.determinant(m[i])
    out[i, 3] = wp.trace(m[i] * m[i])
    ov[i, 0] = wp.cross(a[i], b[i])
    ov[i, 1] = m[i] * a[i] + b[i] * m[i]
    om[i] = m[i] * wp.transpose(m[i]) + wp.outer(a[i], b[i])
