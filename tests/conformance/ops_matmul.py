# `@` for mat@mat, mat@vec, vec@mat; `*` for the same products.
# kern-test: ops_matmul --dim 4 a='rand(mat33,4,seed=22)' b='rand(mat33,4,seed=23)' v='rand(vec3,4,seed=24)' om='zeros(mat33,4,2)' ov='zeros(vec3,4,4)'
# kern-check: om
# kern-check: ov
import warp as wp


@wp.kernel
def ops_matmul(a: wp.array(dtype=wp.mat33), b: wp.array(dtype=wp.mat33), v: wp.array(dtype=wp.vec3),
               om: wp.array2d(dtype=wp.mat33), ov: wp.array2d(dtype=wp.vec3)):
    i = wp.tid()
    om[i, 0] = a[i] @ b[i]
    om[i, 1] = a[i] * b[i]
    ov[i, 0] = a[i] @ v[i]
    ov[i, 1] = v[i] @ a[i]
    ov[i, 2] = a[i] * v[i]
    ov[i, 3] = v[i] * b[i]
