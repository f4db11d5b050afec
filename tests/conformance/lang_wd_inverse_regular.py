# wp.inverse and wp.determinant of regular mat22, mat33 and mat44 in float32 and
# float64 built from run-time data (shifted away from singular), compared with the
# default tolerances (kern follows Warp's formulas).
# kern-test: lang_wd_inverse_regular --dim 6 a='rand(mat33,6,seed=1221)' b='rand(mat44d,6,seed=1222)' c='rand(mat22,6,seed=1223)' o3='zeros(mat33,6)' o4='zeros(mat44d,6)' o2='zeros(mat22,6)' od='zeros(float64,6,3)'
# kern-check: o3
# kern-check: o4
# kern-check: o2
# kern-check: od
import warp as wp


@wp.kernel
def lang_wd_inverse_regular(a: wp.array(dtype=wp.mat33), b: wp.array(dtype=wp.mat44d), c: wp.array(dtype=wp.mat22),
                            o3: wp.array(dtype=wp.mat33), o4: wp.array(dtype=wp.mat44d), o2: wp.array(dtype=wp.mat22),
                            od: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    m3 = a[i] + wp.identity(n=3, dtype=float) * 2.0
    o3[i] = wp.inverse(m3)
    m4 = b[i] + wp.identity(n=4, dtype=wp.float64) * wp.float64(float(i) * 0.5 + 0.5)
    o4[i] = wp.inverse(m4)
    m2 = c[i] + wp.mat22(1.0, 0.0, 0.0, 1.0)
    o2[i] = wp.inverse(m2)
    od[i, 0] = wp.float64(wp.determinant(m3))
    od[i, 1] = wp.determinant(m4)
    od[i, 2] = wp.float64(wp.determinant(m2))
