# wp.transform_compose and wp.transform_decompose in float64 (vec3d, quatd,
# mat44d), the round trip of translation, rotation and scale.
# kern-test: ty_xform_compose64 --dim 8 a='rand(float64,8,10,seed=124)' out='zeros(float64,8,13)'
# why: decompose takes square roots and normalizes in double
# kern-check: out rtol=1e-12 atol=1e-13
import warp as wp


@wp.kernel
def ty_xform_compose64(a: wp.array2d(dtype=wp.float64), out: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    h = wp.float64(0.5)
    p = wp.vec3d(a[i, 0], a[i, 1] - h, a[i, 2])
    q = wp.normalize(wp.quatd(a[i, 3] - h, a[i, 4] - h, a[i, 5] - h, a[i, 6] + h))
    sc = wp.vec3d(a[i, 7] + h, a[i, 8] + wp.float64(1.0), a[i, 9] + wp.float64(0.25))
    m = wp.transform_compose(p, q, sc)
    p2 = wp.vec3d()
    q2 = wp.quatd()
    s2 = wp.vec3d()
    p2, q2, s2 = wp.transform_decompose(m)
    for k in range(3):
        out[i, k] = p2[k]
        out[i, 3 + k] = s2[k]
    for k in range(4):
        out[i, 6 + k] = q2[k]
    out[i, 10] = m[0, 2]
    out[i, 11] = m[2, 1]
    out[i, 12] = m[1, 1]
