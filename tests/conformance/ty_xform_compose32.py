# wp.transform_compose (translation, rotation, scale to a mat44) and
# wp.transform_decompose (unpacked into p, q, s) in float32, with non-uniform
# positive scales, and transform_point/transform_vector with the composed
# matrix.
# kern-test: ty_xform_compose32 --dim 10 a='rand(float32,10,10,seed=123)' out='zeros(float32,10,19)'
# why: decompose takes a square root and normalizes; its float32 rounding is platform math
# kern-check: out rtol=1e-5 atol=2e-6
import warp as wp


@wp.kernel
def ty_xform_compose32(a: wp.array2d(dtype=float), out: wp.array2d(dtype=float)):
    i = wp.tid()
    p = wp.vec3(a[i, 0], a[i, 1] - 0.5, a[i, 2] * 2.0)
    q = wp.normalize(wp.quat(a[i, 3] - 0.5, a[i, 4] - 0.5, a[i, 5] - 0.5, a[i, 6] + 0.1))
    sc = wp.vec3(a[i, 7] + 0.5, a[i, 8] + 1.0, a[i, 9] * 2.0 + 0.25)
    m = wp.transform_compose(p, q, sc)
    p2 = wp.vec3()
    q2 = wp.quat()
    s2 = wp.vec3()
    p2, q2, s2 = wp.transform_decompose(m)
    v = wp.transform_point(m, wp.vec3(1.0, 2.0, 3.0))
    for k in range(3):
        out[i, k] = p2[k]
        out[i, 3 + k] = s2[k]
        out[i, 6 + k] = v[k]
        out[i, 9 + k] = m[k, k]
    for k in range(4):
        out[i, 12 + k] = q2[k] * wp.sign(q2[3])
    out[i, 16] = m[0, 1]
    out[i, 17] = m[2, 0]
    out[i, 18] = m[1, 3]
