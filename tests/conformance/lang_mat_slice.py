# Matrix slices with constant bounds: a row m[1], a column m[:, 2], m[0, 1:], the block
# m[1:3, 0:2], rows m[:2], reversed rows m[::-1]; their shapes through len() and use in
# products, on mat33 and mat44d values read from arrays.
# kern-test: lang_mat_slice --dim 3 m='rand(mat33,3,seed=461)' n='rand(mat44d,3,seed=462)' out='zeros(float,3,6)' ov='zeros(vec3,3)' om='zeros(mat22,3)' od='zeros(float64,3,2)'
# kern-check: out
# kern-check: ov
# kern-check: om
# kern-check: od
import warp as wp


@wp.kernel
def lang_mat_slice(m: wp.array(dtype=wp.mat33), n: wp.array(dtype=wp.mat44d), out: wp.array2d(dtype=float),
                   ov: wp.array(dtype=wp.vec3), om: wp.array(dtype=wp.mat22), od: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    a = m[i]
    col = a[:, 2]
    r0 = a[0, 1:]
    blk = a[1:3, 0:2]
    top = a[:2]
    out[i, 0] = wp.dot(a[1], col)
    out[i, 1] = r0[0] * 10.0 + r0[1]
    out[i, 2] = wp.determinant(blk)
    out[i, 3] = float(len(top) * 10 + len(col))
    out[i, 4] = top[1, 2]
    fl = a[::-1]
    out[i, 5] = fl[0, 0] - a[2, 0]
    ov[i] = col + a[:, 0]
    om[i] = blk * wp.transpose(blk)
    b = n[i]
    od[i, 0] = wp.trace(b[1:3, 1:3])
    od[i, 1] = wp.dot(b[:, 3], b[3])
