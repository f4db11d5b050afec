# A chain of float32 transforms built in a loop (a kinematic chain): each
# link's transform from an axis-angle and an offset, multiplied onto the
# parent, the tip's point and the chain's inverse applied back.
# kern-test: ty_xform_chain32 --dim 8 ang='rand(float32,8,5,seed=127)' out='zeros(vec3,8,3)'
# why: five products of sin/cos results accumulate a few ulp of rounding
# kern-check: out rtol=2e-5 atol=4e-6
import warp as wp


@wp.kernel
def ty_xform_chain32(ang: wp.array2d(dtype=float), out: wp.array2d(dtype=wp.vec3)):
    i = wp.tid()
    t = wp.transform_identity()
    for k in range(5):
        axis = wp.vec3(0.0, 0.0, 1.0)
        if k % 2 == 1:
            axis = wp.vec3(0.0, 1.0, 0.0)
        link = wp.transform(wp.vec3(0.5, 0.0, 0.1 * float(k)), wp.quat_from_axis_angle(axis, (ang[i, k] - 0.5) * 3.0))
        t = wp.transform_multiply(t, link)
    tip = wp.transform_point(t, wp.vec3(0.25, 0.0, 0.0))
    out[i, 0] = tip
    out[i, 1] = wp.transform_point(wp.transform_inverse(t), tip)
    out[i, 2] = wp.transform_vector(t, wp.vec3(1.0, 0.0, 0.0))
