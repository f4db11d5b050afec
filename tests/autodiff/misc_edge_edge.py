# Autodiff of wp.closest_point_edge_edge: Warp 1.19's own adjoint (intersect.h) in general position, points moved by x
# case 0: general position, s and t inside
# case 1: general position, s and t inside
# case 2: t below 0: s from t = 0, inside
# case 3: t above 1: s from t = 1, inside
# case 4: s clamped to 1, t inside
# case 5: t below 0, s clamped to 1
# kern-test: misc_edge_edge --adjoint --dim 6 x='rand(vec3,24,seed=5)' out='zeros(float32,6,3)' adj_x='zeros(vec3,24)' adj_out='ones(float32,6,3)'
# why: Warp's adj_closest_point_edge_edge is the derivative where the result is smooth (the special cases: misc_edge_edge_special.py)
# kern-check: adj_x rtol=1e-4 atol=1e-5
import warp as wp


@wp.func
def corner(j: int):
    v = wp.vec3(0.0)
    if j == 0:
        v = wp.vec3(0.0, 0.0, 0.0)
    if j == 1:
        v = wp.vec3(1.0, 0.0, 0.0)
    if j == 2:
        v = wp.vec3(0.3, -1.0, 0.5)
    if j == 3:
        v = wp.vec3(0.6, 1.0, 0.2)
    if j == 4:
        v = wp.vec3(0.1, 0.2, -0.3)
    if j == 5:
        v = wp.vec3(1.2, 0.5, 0.4)
    if j == 6:
        v = wp.vec3(-0.4, 1.0, 0.8)
    if j == 7:
        v = wp.vec3(1.1, -0.7, 0.1)
    if j == 8:
        v = wp.vec3(0.0, 0.0, 0.0)
    if j == 9:
        v = wp.vec3(1.0, 0.0, 0.0)
    if j == 10:
        v = wp.vec3(0.5, 1.0, 0.5)
    if j == 11:
        v = wp.vec3(0.5, 2.0, 1.0)
    if j == 12:
        v = wp.vec3(0.0, 0.0, 0.0)
    if j == 13:
        v = wp.vec3(1.0, 0.0, 0.0)
    if j == 14:
        v = wp.vec3(0.5, -2.0, -0.5)
    if j == 15:
        v = wp.vec3(0.5, -1.0, 0.5)
    if j == 16:
        v = wp.vec3(0.0, 0.0, 0.0)
    if j == 17:
        v = wp.vec3(1.0, 0.0, 0.0)
    if j == 18:
        v = wp.vec3(2.0, -1.0, 0.5)
    if j == 19:
        v = wp.vec3(2.5, 1.0, 0.3)
    if j == 20:
        v = wp.vec3(0.0, 0.0, 0.0)
    if j == 21:
        v = wp.vec3(1.0, 0.0, 0.0)
    if j == 22:
        v = wp.vec3(1.5, 1.0, 0.2)
    if j == 23:
        v = wp.vec3(3.0, 1.4, 0.5)
    return v


@wp.kernel
def misc_edge_edge(x: wp.array(dtype=wp.vec3), out: wp.array2d(dtype=float)):
    i = wp.tid()
    p1 = corner(4 * i) + x[4 * i] * 0.1
    q1 = corner(4 * i + 1) + x[4 * i + 1] * 0.1
    p2 = corner(4 * i + 2) + x[4 * i + 2] * 0.1
    q2 = corner(4 * i + 3) + x[4 * i + 3] * 0.1
    r = wp.closest_point_edge_edge(p1, q1, p2, q2, 1.0e-6)
    out[i, 0] = r[0]
    out[i, 1] = r[1] * 2.0
    out[i, 2] = r[2] * 3.0
