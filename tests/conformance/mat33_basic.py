# mat33: m[i,j], m[i] rows, row assignment, matrix_from_rows, mat/scalar.
# kern-test: mat33_basic --dim 4 a='rand(mat33,4,seed=13)' out='zeros(mat33,4)' r='zeros(vec3,4)'
# kern-check: out
# kern-check: r
import warp as wp


@wp.kernel
def mat33_basic(a: wp.array(dtype=wp.mat33), out: wp.array(dtype=wp.mat33), r: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    m = a[i]
    t = wp.matrix_from_rows(m[2], m[1], m[0])
    t[1] = wp.vec3(float(i), 0.5, -0.5)
    out[i] = t / 2.0
    r[i] = m[0] + m[1] * m[2, 2]
