# determinant and inverse of mat22/33/44 and mat33d (well-conditioned inputs).
# kern-test: matmath_det_inverse --dim 4 a='rand(mat33,4,seed=34)' d='rand(mat33d,4,seed=35)' det='zeros(float32,4,3)' inv3='zeros(mat33,4)' inv2='zeros(mat22,4)' inv4='zeros(mat44,4)' detd='zeros(float64,4)' invd='zeros(mat33d,4)'
# why: inverse/determinant results depend on the (Warp-defined) operation order; allow small float32 reassociation differences.
# kern-check: det rtol=1e-5 atol=1e-5
# kern-check: inv3 rtol=1e-5 atol=1e-5
# kern-check: inv2 rtol=1e-5 atol=1e-5
# kern-check: inv4 rtol=1e-5 atol=1e-5
# kern-check: detd rtol=1e-12 atol=1e-13
# kern-check: invd rtol=1e-12 atol=1e-13
import warp as wp


@wp.kernel
def matmath_det_inverse(a: wp.array(dtype=wp.mat33), d: wp.array(dtype=wp.mat33d), det: wp.array2d(dtype=wp.float32),
                        inv3: wp.array(dtype=wp.mat33), inv2: wp.array(dtype=wp.mat22), inv4: wp.array(dtype=wp.mat44),
                        detd: wp.array(dtype=wp.float64), invd: wp.array(dtype=wp.mat33d)):
    i = wp.tid()
    m = a[i] + wp.identity(n=3, dtype=wp.float32) * 2.0
    det[i, 0] = wp.determinant(m)
    inv3[i] = wp.inverse(m)
    m2 = wp.mat22(m[0, 0], m[0, 1], m[1, 0], m[1, 1])
    det[i, 1] = wp.determinant(m2)
    inv2[i] = wp.inverse(m2)
    m4 = wp.mat44(m[0, 0], m[0, 1], m[0, 2], 0.5,
                  m[1, 0], m[1, 1], m[1, 2], 0.0,
                  m[2, 0], m[2, 1], m[2, 2], 0.25,
                  0.0, 1.0, 0.0, 3.0)
    det[i, 2] = wp.determinant(m4)
    inv4[i] = wp.inverse(m4)
    md = d[i] + wp.identity(n=3, dtype=wp.float64) * wp.float64(2.0)
    detd[i] = wp.determinant(md)
    invd[i] = wp.inverse(md)
