# wp.inverse and wp.determinant with Warp's formulas (native/mat.h): 2x2, 3x3 and 4x4 in
# float32 and float64, singular matrices (the zero matrix),
# a 3x3 with an infinity (NaN, stored here as a flag), and regular matrices compared
# to the last bit.
# kern-test: warp_inverse --dim 6 a='rand(float32,6,16,seed=7)' d='rand(float64,6,16,seed=8)' o2='zeros(mat22,6)' o3='zeros(mat33,6)' o4='zeros(mat44,6)' od3='zeros(mat33d,6)' od4='zeros(mat44d,6)' det='zeros(float32,6,3)' dd='zeros(float64,6,2)' flags='zeros(int32,6,4)'
# why: Warp's own formulas and intermediate precision, so the results are the same bits
# kern-check: o2 rtol=0 atol=0
# why: as above
# kern-check: o3 rtol=0 atol=0
# why: as above
# kern-check: o4 rtol=0 atol=0
# why: as above
# kern-check: od3 rtol=0 atol=0
# why: as above
# kern-check: od4 rtol=0 atol=0
# why: as above
# kern-check: det rtol=0 atol=0
# why: as above
# kern-check: dd rtol=0 atol=0
# kern-check: flags
import warp as wp


@wp.kernel
def warp_inverse(a: wp.array2d(dtype=float), d: wp.array2d(dtype=wp.float64), o2: wp.array(dtype=wp.mat22),
                 o3: wp.array(dtype=wp.mat33), o4: wp.array(dtype=wp.mat44), od3: wp.array(dtype=wp.mat33d),
                 od4: wp.array(dtype=wp.mat44d), det: wp.array2d(dtype=float), dd: wp.array2d(dtype=wp.float64),
                 flags: wp.array2d(dtype=int)):
    i = wp.tid()
    m2 = wp.mat22(a[i, 0], a[i, 1], a[i, 2], a[i, 3])
    m3 = wp.mat33(a[i, 0], a[i, 1], a[i, 2], a[i, 3], a[i, 4], a[i, 5], a[i, 6], a[i, 7], a[i, 8])
    m4 = wp.mat44(a[i, 0], a[i, 1], a[i, 2], a[i, 3], a[i, 4], a[i, 5], a[i, 6], a[i, 7],
                  a[i, 8], a[i, 9], a[i, 10], a[i, 11], a[i, 12], a[i, 13], a[i, 14], a[i, 15])
    n3 = wp.mat33d(d[i, 0], d[i, 1], d[i, 2], d[i, 3], d[i, 4], d[i, 5], d[i, 6], d[i, 7], d[i, 8])
    n4 = wp.mat44d(d[i, 0], d[i, 1], d[i, 2], d[i, 3], d[i, 4], d[i, 5], d[i, 6], d[i, 7],
                   d[i, 8], d[i, 9], d[i, 10], d[i, 11], d[i, 12], d[i, 13], d[i, 14], d[i, 15])
    if i == 4:
        # singular: two equal rows
        m2 = wp.mat22(1.0, 2.0, 1.0, 2.0)
        m3 = wp.mat33(1.0, 2.0, 3.0, 1.0, 2.0, 3.0, 0.5, 0.25, 1.0)
        m4 = wp.mat44(1.0, 2.0, 3.0, 4.0, 1.0, 2.0, 3.0, 4.0, 0.5, 0.25, 1.0, 2.0, 3.0, 1.0, 0.0, 1.0)
        n3 = wp.mat33d(wp.float64(0.0))
    o2[i] = wp.inverse(m2)
    o3[i] = wp.inverse(m3)
    o4[i] = wp.inverse(m4)
    od3[i] = wp.inverse(n3)
    od4[i] = wp.inverse(n4)
    det[i, 0] = wp.determinant(m2)
    det[i, 1] = wp.determinant(m3)
    det[i, 2] = wp.determinant(m4)
    dd[i, 0] = wp.determinant(n3)
    dd[i, 1] = wp.determinant(n4)
    inf3 = wp.inverse(wp.mat33(wp.inf, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0) + m3)
    inf2 = wp.inverse(wp.mat22(wp.inf, 0.0, 0.0, 1.0))
    flags[i, 0] = int(wp.isnan(inf3[0, 0])) + 2 * int(wp.isnan(inf3[1, 1]))
    flags[i, 1] = int(wp.isnan(inf2[0, 0])) + 2 * int(inf2[1, 1] == 0.0)
    flags[i, 2] = int(wp.inverse(wp.mat22(0.0)) == wp.mat22(0.0))
    flags[i, 3] = int(wp.inverse(wp.mat44(0.0)) == wp.mat44(0.0))
