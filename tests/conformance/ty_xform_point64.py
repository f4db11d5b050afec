# float64 transforms: wp.transformd from (p, q), wp.transform_point,
# wp.transform_vector, wp.transform_multiply and t * t, wp.transform_inverse,
# wp.transform_get_translation/get_rotation, .p and .q.
# kern-test: ty_xform_point64 --dim 10 a='rand(float64,10,10,seed=121)' out='zeros(float64,10,22)'
# kern-check: out
import warp as wp


@wp.kernel
def ty_xform_point64(a: wp.array2d(dtype=wp.float64), out: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    h = wp.float64(0.5)
    p = wp.vec3d(a[i, 0], a[i, 1] - h, a[i, 2] * wp.float64(4.0))
    q = wp.normalize(wp.quatd(a[i, 3] - h, a[i, 4] - h, a[i, 5] - h, a[i, 6]))
    t = wp.transformd(p, q)
    v = wp.vec3d(a[i, 7], a[i, 8], a[i, 9] - h)
    tp = wp.transform_point(t, v)
    tv = wp.transform_vector(t, v)
    u = wp.transformd(v, wp.quat_from_axis_angle(wp.vec3d(h, h, h) / wp.length(wp.vec3d(h, h, h)), a[i, 9]))
    tu = wp.transform_multiply(t, u)
    tu2 = u * t
    ti = wp.transform_inverse(t)
    back = wp.transform_point(ti, tp)
    for k in range(3):
        out[i, k] = tp[k]
        out[i, 3 + k] = tv[k]
        out[i, 6 + k] = wp.transform_get_translation(tu)[k]
        out[i, 9 + k] = tu2.p[k]
        out[i, 12 + k] = back[k]
    for k in range(4):
        out[i, 15 + k] = wp.transform_get_rotation(tu)[k] + tu2.q[k]
    out[i, 19] = ti[0]
    out[i, 20] = ti[4]
    out[i, 21] = ti[6]
