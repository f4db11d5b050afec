# wp.determinant and wp.inverse of mat22h and mat33h: Warp's mat.h formulas
# in float16, each product and difference rounded (a singular matrix gives
# the zero matrix).
# kern-test: half_det_inverse --dim 8 a='rand(mat22h,8,seed=61)' b='rand(mat33h,8,seed=62)' ia='zeros(mat22h,8)' ib='zeros(mat33h,8)' d='zeros(float16,8,2)'
# kern-check: ia
# kern-check: ib
# kern-check: d
import warp as wp


@wp.kernel
def half_det_inverse(a: wp.array(dtype=wp.mat22h), b: wp.array(dtype=wp.mat33h),
                     ia: wp.array(dtype=wp.mat22h), ib: wp.array(dtype=wp.mat33h),
                     d: wp.array2d(dtype=wp.float16)):
    i = wp.tid()
    m = a[i] * wp.float16(4.0) - wp.mat22h(wp.float16(1.0), wp.float16(0.0), wp.float16(0.0), wp.float16(1.0))
    n = b[i] * wp.float16(3.0)
    if i == 7:
        m = wp.mat22h(wp.float16(1.0), wp.float16(2.0), wp.float16(2.0), wp.float16(4.0))
        n = wp.mat33h(wp.float16(1.0), wp.float16(2.0), wp.float16(3.0),
                      wp.float16(2.0), wp.float16(4.0), wp.float16(6.0),
                      wp.float16(0.5), wp.float16(0.25), wp.float16(1.0))
    ia[i] = wp.inverse(m)
    ib[i] = wp.inverse(n)
    d[i, 0] = wp.determinant(m)
    d[i, 1] = wp.determinant(n)
