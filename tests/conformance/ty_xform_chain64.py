# A float64 kinematic chain: transformd links from quat_from_axis_angle and
# offsets multiplied in a dynamic loop, the tip point, the inverse chain
# applied back, and transform_vector of the result.
# kern-test: ty_xform_chain64 --dim 8 ang='rand(float64,8,6,seed=272)' out='zeros(float64,8,9)'
# kern-check: out
import warp as wp


@wp.kernel
def ty_xform_chain64(ang: wp.array2d(dtype=wp.float64), out: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    t = wp.transform_identity(dtype=wp.float64)
    z = wp.float64(0.0)
    o = wp.float64(1.0)
    for k in range(6):
        axis = wp.vec3d(z, z, o)
        if k == 1 or k == 4:
            axis = wp.vec3d(z, o, z)
        if k == 2 or k == 5:
            axis = wp.vec3d(o, z, z)
        th = (ang[i, k] - wp.float64(0.5)) * wp.float64(3.0)
        link = wp.transformd(wp.vec3d(wp.float64(0.5), z, wp.float64(0.1) * wp.float64(k)), wp.quat_from_axis_angle(axis, th))
        t = t * link
    tip = wp.transform_point(t, wp.vec3d(wp.float64(0.25), z, z))
    back = wp.transform_point(wp.transform_inverse(t), tip)
    d = wp.transform_vector(t, wp.vec3d(o, o, z))
    for k in range(3):
        out[i, k] = tip[k]
        out[i, 3 + k] = back[k]
        out[i, 6 + k] = d[k]
