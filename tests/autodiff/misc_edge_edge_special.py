# Autodiff of wp.closest_point_edge_edge: parallel edges, edges that are points, the nearly parallel band, crossing edges, a kink
# case 0: parallel (determinant 0): s = 0, t inside
# case 1: parallel, t below 0: s from t = 0, clamped to 1
# case 2: first edge a point
# case 3: second edge a point
# case 4: both edges points
# case 5: parallel to within sin^2 = 1e-6: Warp holds s constant
# case 6: edges that cross: distance 0, no gradient through it
# case 7: t exactly 0 inside the general case (a kink)
# kern-test: misc_edge_edge_special --adjoint --dim 8 x='zeros(vec3,32)' out='zeros(float32,8,3)' adj_x='zeros(vec3,32)' adj_out='ones(float32,8,3)'
# why: the golden is Warp's; in the nearly parallel band Warp holds s constant (not the derivative), at distance 0 it adds nothing
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
        v = wp.vec3(-0.5, 1.0, 0.0)
    if j == 3:
        v = wp.vec3(1.0, 1.0, 0.0)
    if j == 4:
        v = wp.vec3(0.0, 0.0, 0.0)
    if j == 5:
        v = wp.vec3(1.0, 0.0, 0.0)
    if j == 6:
        v = wp.vec3(1.5, 1.0, 0.0)
    if j == 7:
        v = wp.vec3(3.0, 1.0, 0.0)
    if j == 8:
        v = wp.vec3(0.2, 0.3, 0.1)
    if j == 9:
        v = wp.vec3(0.2, 0.3, 0.1)
    if j == 10:
        v = wp.vec3(-1.0, 0.0, 0.0)
    if j == 11:
        v = wp.vec3(1.0, 0.5, 0.2)
    if j == 12:
        v = wp.vec3(0.0, 0.0, 0.0)
    if j == 13:
        v = wp.vec3(1.0, 0.0, 0.2)
    if j == 14:
        v = wp.vec3(0.4, 1.0, 0.3)
    if j == 15:
        v = wp.vec3(0.4, 1.0, 0.3)
    if j == 16:
        v = wp.vec3(0.0, 0.0, 0.0)
    if j == 17:
        v = wp.vec3(0.0, 0.0, 0.0)
    if j == 18:
        v = wp.vec3(1.0, 1.0, 1.0)
    if j == 19:
        v = wp.vec3(1.0, 1.0, 1.0)
    if j == 20:
        v = wp.vec3(0.0, 0.0, 0.0)
    if j == 21:
        v = wp.vec3(1.0, 0.0, 0.0)
    if j == 22:
        v = wp.vec3(-0.5, -0.0005, 0.1)
    if j == 23:
        v = wp.vec3(1.5, 0.0005, 0.1)
    if j == 24:
        v = wp.vec3(0.0, 0.0, 0.0)
    if j == 25:
        v = wp.vec3(1.0, 0.0, 0.0)
    if j == 26:
        v = wp.vec3(0.5, -1.0, 0.0)
    if j == 27:
        v = wp.vec3(0.5, 1.0, 0.0)
    if j == 28:
        v = wp.vec3(0.0, 0.0, 0.0)
    if j == 29:
        v = wp.vec3(1.0, 0.0, 0.0)
    if j == 30:
        v = wp.vec3(0.5, 0.0, 1.0)
    if j == 31:
        v = wp.vec3(0.5, 1.0, 1.0)
    return v


@wp.kernel
def misc_edge_edge_special(x: wp.array(dtype=wp.vec3), out: wp.array2d(dtype=float)):
    i = wp.tid()
    p1 = corner(4 * i) + x[4 * i]
    q1 = corner(4 * i + 1) + x[4 * i + 1]
    p2 = corner(4 * i + 2) + x[4 * i + 2]
    q2 = corner(4 * i + 3) + x[4 * i + 3]
    r = wp.closest_point_edge_edge(p1, q1, p2, q2, 1.0e-6)
    out[i, 0] = r[0]
    out[i, 1] = r[1] * 2.0
    out[i, 2] = r[2] * 3.0
