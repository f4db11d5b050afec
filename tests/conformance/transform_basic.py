# Transforms (wp.transform, wp.transformd) built from a position and a rotation, their
# .p and .q, wp.transform_identity, wp.transform_point, wp.transform_vector,
# wp.transform_multiply and t * t, wp.transform_inverse, wp.transform_get_translation and
# wp.transform_get_rotation, components by index; and wp.quat_to_matrix.
# kern-test: transform_basic --dim 4 a='rand(float32,4,7,seed=21)' p='rand(vec3,4,seed=22)' out='zeros(vec3,4,6)' oq='zeros(vec4,4,3)' om='zeros(mat33,4)' os='zeros(float32,4,3)' od='zeros(float64,4,2)'
# kern-check: out
# kern-check: oq
# kern-check: om
# kern-check: os
# kern-check: od
import warp as wp


@wp.func
def place(t: wp.transform, x: wp.vec3) -> wp.vec3:
    return wp.transform_point(t, x)


@wp.kernel
def transform_basic(a: wp.array2d(dtype=float), p: wp.array(dtype=wp.vec3), out: wp.array2d(dtype=wp.vec3),
                    oq: wp.array2d(dtype=wp.vec4), om: wp.array(dtype=wp.mat33), os: wp.array2d(dtype=float),
                    od: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    q = wp.normalize(wp.quat(a[i, 3], a[i, 4], a[i, 5], a[i, 6]))
    t = wp.transform(wp.vec3(a[i, 0], a[i, 1], a[i, 2]), q)
    s = wp.transform(wp.vec3(1.0, -2.0, 0.5), wp.quat_from_axis_angle(wp.vec3(0.0, 1.0, 0.0), 0.3))
    ts = t * s
    m = wp.transform_multiply(s, t)
    inv = wp.transform_inverse(t)
    out[i, 0] = place(t, p[i])
    out[i, 1] = wp.transform_vector(t, p[i])
    out[i, 2] = wp.transform_point(ts, p[i])
    out[i, 3] = wp.transform_point(m, p[i])
    out[i, 4] = wp.transform_point(inv, wp.transform_point(t, p[i]))
    out[i, 5] = wp.transform_get_translation(inv) + t.p
    r = wp.transform_get_rotation(ts)
    oq[i, 0] = wp.vec4(r.x, r.y, r.z, r.w)
    oq[i, 1] = wp.vec4(t.q[0], t.q[1], t.q[2], t.q[3])
    idt = wp.transform_identity()
    oq[i, 2] = wp.vec4(idt[3], idt[4], idt[5], idt[6])
    om[i] = wp.quat_to_matrix(q)
    os[i, 0] = t[0] + t[6]
    os[i, 1] = wp.transform_point(wp.transform_identity(), p[i])[1]
    os[i, 2] = wp.determinant(wp.quat_to_matrix(q))
    td = wp.transformd(wp.vec3d(wp.float64(1.0), wp.float64(2.0), wp.float64(3.0)), wp.quatd(wp.float64(0.0), wp.float64(0.0), wp.float64(0.0), wp.float64(1.0)))
    od[i, 0] = wp.transform_point(td, wp.vec3d(wp.float64(i), wp.float64(0.0), wp.float64(0.0)))[0]
    od[i, 1] = wp.transform_inverse(td).p[2]
