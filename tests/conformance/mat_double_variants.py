# mat22d/mat33d/mat44d: float64 matrices in arrays and by value.
# kern-test: mat_double_variants --dim 3 a='arange(mat33d,3)' p=1,2,3,4 o2='zeros(mat22d,3)' o3='zeros(mat33d,3)' o4='zeros(mat44d,3)'
# kern-check: o2
# kern-check: o3
# kern-check: o4
import warp as wp


@wp.kernel
def mat_double_variants(a: wp.array(dtype=wp.mat33d), p: wp.mat22d,
                        o2: wp.array(dtype=wp.mat22d), o3: wp.array(dtype=wp.mat33d),
                        o4: wp.array(dtype=wp.mat44d)):
    i = wp.tid()
    m = a[i]
    tenth = wp.float64(0.1)
    o3[i] = m * tenth
    o2[i] = p * m[1, 1] + wp.mat22d(m[0, 0], m[0, 1], m[1, 0], tenth)
    d = wp.mat44d()
    d[0, 0] = m[2, 2]
    d[3] = wp.vec4d(tenth, tenth, tenth, tenth)
    o4[i] = d
