# Vector and matrix slices (constant bounds, as Warp requires): v[1:3] is a vec2,
# v[::-1] a reversed vec4, m[:, 0] a column, m[1, 1:] part of a row, m[1:] the last
# two rows as a mat23, m[0:2, 1:3] a mat22, a quaternion's slice a plain vec3;
# len() of each.
# kern-test: vec_mat_slices --dim 2 v='arange(vec4,2)' m='arange(mat33,2)' out='zeros(float32,2,20)'
# kern-check: out
import warp as wp


@wp.kernel
def vec_mat_slices(v: wp.array(dtype=wp.vec4), m: wp.array(dtype=wp.mat33),
                   out: wp.array2d(dtype=float)):
    i = wp.tid()
    a = v[i]
    s = a[1:3]
    out[i, 0] = s[0] * 10.0 + s[1]
    out[i, 1] = float(len(s))
    r = a[::-1]
    out[i, 2] = r[0] * 10.0 + r[3]
    h = a[:2]
    out[i, 3] = wp.length_sq(h)
    t = a[-3:]
    out[i, 4] = t[0] + float(len(t)) * 100.0
    b = m[i]
    c = b[:, 0]
    out[i, 5] = c[0] + c[1] * 10.0 + c[2] * 100.0
    p = b[1, 1:]
    out[i, 6] = p[0] * 10.0 + p[1]
    rows = b[1:]
    out[i, 7] = rows[1, 2] + float(len(rows)) * 100.0
    sq = b[0:2, 1:3]
    out[i, 8] = wp.determinant(sq)
    out[i, 9] = sq[1, 0]
    cs = b[::2, 2]
    out[i, 10] = cs[0] + cs[1] * 10.0
    q = wp.quat(1.0, 2.0, 3.0, 4.0)
    qv = q[0:3]
    out[i, 11] = wp.dot(qv, wp.vec3(1.0, 10.0, 100.0))
    e = wp.vec3(5.0, 6.0, 7.0)[1:]
    out[i, 12] = e[0] + e[1]
    md = b[1:3, ::-1]
    out[i, 13] = md[0, 0] * 10.0 + md[1, 2]
    out[i, 14] = float(len(b[0:1]))
