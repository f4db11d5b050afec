# mat22: constructor from 4 scalars, m[i,j], m[i] (row), element assignment, mat*scalar, mat+mat.
# kern-test: mat22_basic --dim 4 a='arange(mat22,4)' out='zeros(mat22,4)' s='zeros(float32,4,4)'
# kern-check: out
# kern-check: s
import warp as wp


@wp.kernel
def mat22_basic(a: wp.array(dtype=wp.mat22), out: wp.array(dtype=wp.mat22), s: wp.array2d(dtype=wp.float32)):
    i = wp.tid()
    m = a[i]
    n = wp.mat22(1.0, 2.0, 3.0, 4.0)
    r = m * 2.0 + n - m
    r[0, 1] = -1.0
    out[i] = r
    row = m[1]
    s[i, 0] = m[0, 1]
    s[i, 1] = row[0] + row.y
    s[i, 2] = m[1][1]
    s[i, 3] = (-m)[0, 0]
