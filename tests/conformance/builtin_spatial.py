# Spatial vectors and matrices (Warp's 6-vectors and 6x6 matrices) in
# float32 and float64: wp.spatial_vector from (w, v) (float32: Warp builds
# float64 ones from components only) and from components,
# wp.spatial_matrix, arithmetic, spatial_top/bottom, spatial_dot,
# spatial_cross, spatial_cross_dual, spatial_adjoint times a spatial vector,
# and math.py's velocity_at_point, transform_twist and transform_wrench;
# spatial values through @wp.func and in arrays (kernel parameters).
# kern-test: builtin_spatial --dim 5 a='rand(float32,5,12,seed=71)' d='rand(float64,5,12,seed=72)' o='zeros(float32,5,8,6)' od='zeros(float64,5,4,6)' sv='rand(spatial_vector,5,seed=73)' osv='zeros(spatial_vectord,5)' osm='zeros(spatial_matrix,5)'
# kern-check: o
# kern-check: od
# kern-check: osv
# kern-check: osm
import warp as wp


@wp.func
def flip(x: wp.spatial_vector) -> wp.spatial_vector:
    return wp.spatial_vector(wp.spatial_bottom(x), wp.spatial_top(x))


@wp.kernel
def builtin_spatial(a: wp.array2d(dtype=float), d: wp.array2d(dtype=wp.float64), o: wp.array3d(dtype=float),
                    od: wp.array3d(dtype=wp.float64), sv: wp.array(dtype=wp.spatial_vector),
                    osv: wp.array(dtype=wp.spatial_vectord), osm: wp.array(dtype=wp.spatial_matrix)):
    i = wp.tid()
    x = wp.spatial_vector(a[i, 0], a[i, 1], a[i, 2], a[i, 3], a[i, 4], a[i, 5]) + sv[i]
    y = wp.spatial_vector(wp.vec3(a[i, 6], a[i, 7], a[i, 8]), wp.vec3(a[i, 9], a[i, 10], a[i, 11]))
    q = wp.normalize(wp.quat(a[i, 0], a[i, 3], a[i, 6], a[i, 9]))
    t = wp.transform(wp.vec3(a[i, 1], a[i, 4], a[i, 7]), q)
    R = wp.quat_to_matrix(q)
    S = wp.skew(wp.vec3(a[i, 2], a[i, 5], a[i, 8])) * R
    M = wp.spatial_adjoint(R, S)
    r = wp.vec3(0.5, -1.0, 2.0)
    res = wp.spatial_vector()
    for k in range(8):
        if k == 0:
            res = wp.spatial_cross(x, y)
        elif k == 1:
            res = wp.spatial_cross_dual(x, y)
        elif k == 2:
            res = M * x
        elif k == 3:
            res = wp.transform_twist(t, x)
        elif k == 4:
            res = wp.transform_wrench(t, y)
        elif k == 5:
            res = flip(x) * 2.0 - y
        elif k == 6:
            v = wp.velocity_at_point(x, r)
            res = wp.spatial_vector(v, wp.spatial_top(y))
        else:
            res = wp.spatial_vector(wp.spatial_dot(x, y), wp.length(x), 0.0, 0.0, 0.0, 1.0)
        for j in range(6):
            o[i, k, j] = res[j]
    xd = wp.spatial_vectord(d[i, 0], d[i, 1], d[i, 2], d[i, 3], d[i, 4], d[i, 5])
    yd = wp.spatial_vectord(d[i, 6], d[i, 7], d[i, 8], d[i, 9], d[i, 10], d[i, 11])
    Rd = wp.mat33d(d[i, 0], d[i, 1], d[i, 2], d[i, 3], d[i, 4], d[i, 5], d[i, 6], d[i, 7], d[i, 8])
    Md = wp.spatial_adjoint(Rd, wp.transpose(Rd))
    z = wp.spatial_matrixd()
    resd = wp.spatial_vectord()
    for k in range(4):
        if k == 0:
            resd = wp.spatial_cross(xd, yd)
        elif k == 1:
            resd = wp.spatial_cross_dual(xd, yd)
        elif k == 2:
            resd = Md * xd + z * yd
        else:
            tp = wp.spatial_top(yd)
            bt = wp.spatial_bottom(xd)
            resd = wp.spatial_vectord(tp[0], tp[1], tp[2], bt[0], bt[1], bt[2]) * wp.spatial_dot(xd, yd)
        for j in range(6):
            od[i, k, j] = resd[j]
    osv[i] = xd - yd
    osm[i] = M
