# Transform helpers: wp.transform_to_matrix, transform_from_matrix,
# transform_compose (scale, rotation, position into a 4x4),
# transform_decompose (unpacked into position, rotation and scale; a zero
# scale column is left as is), transform_set_translation and
# transform_set_rotation (statements that change a local variable
# in place), in float32 and float64.  (The _copy forms are not compared:
# Warp 1.19 types their result as a float16 transform.)
# kern-test: builtin_xform_more --dim 6 a='rand(vec4,6,seed=41)' t='rand(float32,6,7,seed=42)' om='zeros(mat44,6,3)' ov='zeros(vec3,6,4)' oq='zeros(vec4,6,3)' ot='zeros(float32,6,2,7)' od='zeros(float64,6,9)'
# kern-check: om
# kern-check: ov
# kern-check: oq
# kern-check: ot
# kern-check: od
import warp as wp


@wp.func
def qv(q: wp.quat) -> wp.vec4:
    return wp.vec4(q[0], q[1], q[2], q[3])


@wp.kernel
def builtin_xform_more(a: wp.array(dtype=wp.vec4), t: wp.array2d(dtype=float), om: wp.array2d(dtype=wp.mat44),
                       ov: wp.array2d(dtype=wp.vec3), oq: wp.array2d(dtype=wp.vec4), ot: wp.array3d(dtype=float),
                       od: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    q = wp.normalize(wp.quat(a[i][0] - 0.5, a[i][1] - 0.5, a[i][2], a[i][3] - 0.5))
    p = wp.vec3(t[i, 0], t[i, 1] * 2.0, -t[i, 2])
    s = wp.vec3(1.0 + t[i, 3], 2.0, 0.5 + t[i, 4])
    x = wp.transform(p, q)
    om[i, 0] = wp.transform_to_matrix(x)
    m = wp.transform_compose(p, q, s)
    om[i, 1] = m
    om[i, 2] = wp.transform_compose(p, q, wp.vec3(1.0, 0.0, 3.0))
    pos = wp.vec3()
    rot = wp.quat()
    scl = wp.vec3()
    pos, rot, scl = wp.transform_decompose(m)
    ov[i, 0] = pos
    ov[i, 1] = scl
    oq[i, 0] = qv(rot)
    pos, rot, scl = wp.transform_decompose(om[i, 2])
    ov[i, 2] = scl
    oq[i, 1] = qv(rot)
    y = wp.transform_from_matrix(wp.transform_to_matrix(x))
    ov[i, 3] = wp.transform_get_translation(y)
    oq[i, 2] = qv(wp.transform_get_rotation(y))
    wp.transform_set_translation(x, s)
    u = wp.transform_identity()
    wp.transform_set_rotation(u, q)
    for k in range(7):
        ot[i, 0, k] = x[k]
        ot[i, 1, k] = u[k]
    one = wp.float64(1.0)
    qd = wp.normalize(wp.quatd(wp.float64(t[i, 5]), one, wp.float64(t[i, 6]), one))
    pd = wp.vec3d(wp.float64(t[i, 0]), one, one)
    md = wp.transform_compose(pd, qd, wp.vec3d(one, wp.float64(2.0), wp.float64(3.0)))
    xd = wp.transform_from_matrix(wp.transform_to_matrix(wp.transformd(pd, qd)))
    pp = wp.vec3d()
    rr = wp.quatd()
    ss = wp.vec3d()
    pp, rr, ss = wp.transform_decompose(md)
    od[i, 0] = md[0, 1]
    od[i, 1] = md[2, 3]
    od[i, 2] = xd[3]
    od[i, 3] = xd[6]
    od[i, 4] = rr[0]
    od[i, 5] = rr[3]
    od[i, 6] = ss[1]
    od[i, 7] = pp[0]
    wp.transform_set_rotation(xd, wp.quatd(one, one, one, one))
    od[i, 8] = xd[4]
