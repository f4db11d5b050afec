# wp.closest_point_edge_edge (general, parallel, and point-like segments
# below epsilon; s, t clamped to [0, 1]) and wp.intersect_tri_tri on random
# triangle pairs in float32 and float64, touching-free, plus coplanar pairs
# that overlap and that do not (kern's own test, emit/extra.c Note [triangle
# intersection], gives Moeller's answers away from touching cases).
# kern-test: builtin_intersect --dim 64 p='rand(vec3,64,6,seed=51)' oe='zeros(vec3,64,4)' oi='zeros(int32,64,4)'
# kern-check: oe
# kern-check: oi
import warp as wp


@wp.kernel
def builtin_intersect(p: wp.array2d(dtype=wp.vec3), oe: wp.array2d(dtype=wp.vec3), oi: wp.array2d(dtype=int)):
    i = wp.tid()
    a = p[i, 0]
    b = p[i, 1]
    c = p[i, 2]
    d = p[i, 3]
    e = p[i, 4]
    f = p[i, 5]
    oe[i, 0] = wp.closest_point_edge_edge(a, b, c, d, 1.0e-6)
    oe[i, 1] = wp.closest_point_edge_edge(a, b, a + wp.vec3(1.0, 0.0, 0.0), b + wp.vec3(1.0, 0.0, 0.0), 1.0e-6)
    oe[i, 2] = wp.closest_point_edge_edge(a, a, c, d, 1.0e-6)
    oe[i, 3] = wp.closest_point_edge_edge(a, b, c, c + wp.vec3(1.0e-4, 0.0, 0.0), 1.0e-6)
    oi[i, 0] = wp.intersect_tri_tri(a, b, c, d, e, f)
    oi[i, 1] = wp.intersect_tri_tri(wp.vec3d(a), wp.vec3d(b), wp.vec3d(c) * wp.float64(2.0),
                                    wp.vec3d(d), wp.vec3d(e) - wp.vec3d(f), wp.vec3d(f))
    # coplanar (z = 0): the second triangle shifted along x by 0 .. 1.26
    s = float(i) * 0.02
    oi[i, 2] = wp.intersect_tri_tri(wp.vec3(0.0, 0.0, 0.0), wp.vec3(1.0, 0.0, 0.0), wp.vec3(0.0, 1.0, 0.0),
                                    wp.vec3(0.6 + s, 0.1, 0.0), wp.vec3(1.5 + s, 0.1, 0.0), wp.vec3(0.6 + s, 0.9, 0.0))
    oi[i, 3] = wp.intersect_tri_tri(a, b, c, a + wp.vec3(0.0, 0.0, 0.5), b + wp.vec3(0.0, 0.0, 0.5), c + wp.vec3(0.0, 0.0, 0.5))
