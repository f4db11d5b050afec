# float16 matrices (mat22h, mat33h): products with matrices and vectors
# (each product and partial sum rounded, as Warp's templates), transpose,
# trace, outer, scalar products and element writes.
# kern-test: ty_half_mat33h --dim 10 a='rand(mat33h,10,seed=173)' b='rand(vec3h,10,seed=174)' om='zeros(mat33h,10,3)' ov='zeros(vec3h,10,2)' o2='zeros(mat22h,10,1)' s='zeros(float16,10,2)'
# kern-check: om
# kern-check: ov
# kern-check: o2
# kern-check: s
import warp as wp


@wp.kernel
def ty_half_mat33h(a: wp.array(dtype=wp.mat33h), b: wp.array(dtype=wp.vec3h), om: wp.array2d(dtype=wp.mat33h),
                   ov: wp.array2d(dtype=wp.vec3h), o2: wp.array2d(dtype=wp.mat22h), s: wp.array2d(dtype=wp.float16)):
    i = wp.tid()
    m = a[i] * wp.float16(3.0) - wp.identity(n=3, dtype=wp.float16)
    v = b[i] - wp.vec3h(wp.float16(0.5))
    om[i, 0] = m * wp.transpose(m)
    om[i, 1] = wp.outer(v, m[1]) + m * wp.float16(0.5)
    n = m
    n[1, 2] = wp.float16(7.5)
    n[0] = v
    om[i, 2] = n
    ov[i, 0] = m * v
    ov[i, 1] = v * m
    p = wp.mat22h(m[0, 0], m[0, 1], m[1, 0], v[2])
    o2[i, 0] = p * p - wp.transpose(p)
    s[i, 0] = wp.trace(m)
    s[i, 1] = wp.determinant(p)
