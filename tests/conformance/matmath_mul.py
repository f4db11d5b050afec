# wp.mul for mat*mat, mat*vec, vec*mat, mat*scalar, vec*scalar.
# kern-test: matmath_mul --dim 4 a='rand(mat22,4,seed=36)' b='arange(mat22,4)' v='arange(vec2,4)' om='zeros(mat22,4,2)' ov='zeros(vec2,4,3)'
# kern-check: om
# kern-check: ov
import warp as wp


@wp.kernel
def matmath_mul(a: wp.array(dtype=wp.mat22), b: wp.array(dtype=wp.mat22), v: wp.array(dtype=wp.vec2),
                om: wp.array2d(dtype=wp.mat22), ov: wp.array2d(dtype=wp.vec2)):
    i = wp.tid()
    om[i, 0] = wp.mul(a[i], b[i])
    om[i, 1] = wp.mul(b[i], 0.5)
    ov[i, 0] = wp.mul(a[i], v[i])
    ov[i, 1] = wp.mul(v[i], a[i])
    ov[i, 2] = wp.mul(v[i], 3.0)
