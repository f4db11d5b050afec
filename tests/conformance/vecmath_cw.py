# cw_mul / cw_div on vectors and matrices; min/max on vectors are component-wise,
# and min/max of a single vector give its smallest/largest component.
# kern-test: vecmath_cw --dim 5 a='rand(vec3,5,seed=37)' b='arange(vec3,5)' m='arange(mat22,5)' ov='zeros(vec3,5,4)' om='zeros(mat22,5,2)' os='zeros(float32,5,2)'
# kern-check: ov
# kern-check: om
# kern-check: os
import warp as wp


@wp.kernel
def vecmath_cw(a: wp.array(dtype=wp.vec3), b: wp.array(dtype=wp.vec3), m: wp.array(dtype=wp.mat22),
               ov: wp.array2d(dtype=wp.vec3), om: wp.array2d(dtype=wp.mat22), os: wp.array2d(dtype=wp.float32)):
    i = wp.tid()
    c = b[i] + wp.vec3(1.0, 1.0, 1.0)
    ov[i, 0] = wp.cw_mul(a[i], c)
    ov[i, 1] = wp.cw_div(a[i], c)
    ov[i, 2] = wp.min(a[i], c * 0.1)
    ov[i, 3] = wp.max(a[i], c * 0.1)
    n = m[i] + wp.mat22(1.0, 1.0, 1.0, 1.0)
    om[i, 0] = wp.cw_mul(n, n)
    om[i, 1] = wp.cw_div(wp.mat22(1.0, 2.0, 3.0, 4.0), n)
    os[i, 0] = wp.min(a[i])
    os[i, 1] = wp.max(c)
