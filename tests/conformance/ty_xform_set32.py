# Setting the parts of a transform in float32 and float64: the in-place
# wp.transform_set_translation and wp.transform_set_rotation, the
# wp.transform_identity of both precisions, and the 7-component constructor.
# kern-test: ty_xform_set32 --dim 8 a='rand(float32,8,7,seed=125)' d='rand(float64,8,7,seed=126)' out='zeros(float32,8,14)' od='zeros(float64,8,14)'
# kern-check: out
# kern-check: od
import warp as wp


@wp.kernel
def ty_xform_set32(a: wp.array2d(dtype=float), d: wp.array2d(dtype=wp.float64), out: wp.array2d(dtype=float),
                   od: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    t = wp.transform_identity()
    wp.transform_set_translation(t, wp.vec3(a[i, 0], a[i, 1], a[i, 2]))
    wp.transform_set_rotation(t, wp.normalize(wp.quat(a[i, 3], a[i, 4], a[i, 5], a[i, 6])))
    u = wp.transform(a[i, 6], a[i, 5], a[i, 4], 0.0, 0.0, 0.0, 1.0)
    w = t * u
    td = wp.transform_identity(dtype=wp.float64)
    wp.transform_set_translation(td, wp.vec3d(d[i, 0], d[i, 1], d[i, 2]))
    wp.transform_set_rotation(td, wp.normalize(wp.quatd(d[i, 3], d[i, 4], d[i, 5], d[i, 6])))
    wd = td * td
    for k in range(7):
        out[i, k] = t[k]
        out[i, 7 + k] = w[k]
        od[i, k] = td[k]
        od[i, 7 + k] = wd[k]
