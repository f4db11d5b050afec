# Runtime component indices: v[k] and m[r, c] / m[r] read and written in loops.
# kern-test: vec_index_dynamic --dim 4 a='rand(vec4,4,seed=40)' m='arange(mat33,4)' ov='zeros(vec4,4)' om='zeros(mat33,4)' os='zeros(float32,4,2)'
# kern-check: ov
# kern-check: om
# kern-check: os
import warp as wp


@wp.kernel
def vec_index_dynamic(a: wp.array(dtype=wp.vec4), m: wp.array(dtype=wp.mat33), ov: wp.array(dtype=wp.vec4),
                      om: wp.array(dtype=wp.mat33), os: wp.array2d(dtype=wp.float32)):
    i = wp.tid()
    v = a[i]
    w = wp.vec4()
    s = float(0.0)
    for k in range(4):
        w[3 - k] = v[k] * float(k + 1)
        s += v[(k + i) % 4]
    ov[i] = w
    os[i, 0] = s
    t = wp.mat33()
    tr = float(0.0)
    for r in range(3):
        for c in range(3):
            t[c, r] = m[i][r, c] + float(r * 10)
        tr += m[i][r][(r + i) % 3]
    om[i] = t
    os[i, 1] = tr
