# wp.closest_point_edge_edge between random segment pairs and special
# cases: parallel segments, a degenerate segment (a point), crossing
# segments and segments whose closest points are at their ends; the result
# (s, t, distance) is unpacked from the vec3 Warp returns.
# kern-test: bi_geom_edge_edge --dim 16 a='rand(vec3,16,4,seed=261)' out='zeros(vec3,16,4)'
# why: the distance is a square root of a difference of products (OpenCL sqrt rounding)
# kern-check: out rtol=1e-5 atol=2e-6
import warp as wp


@wp.kernel
def bi_geom_edge_edge(a: wp.array2d(dtype=wp.vec3), out: wp.array2d(dtype=wp.vec3)):
    i = wp.tid()
    p1 = a[i, 0] * 4.0
    q1 = a[i, 1] * 4.0
    p2 = a[i, 2] * 4.0 - wp.vec3(1.0, 0.0, 1.0)
    q2 = a[i, 3] * 4.0
    out[i, 0] = wp.closest_point_edge_edge(p1, q1, p2, q2, 1e-6)
    d = q1 - p1
    off = wp.vec3(0.0, 1.0 + float(i) * 0.1, 0.5)
    out[i, 1] = wp.closest_point_edge_edge(p1, q1, p1 + off + d * 0.3, q1 + off + d * 0.7, 1e-6)
    out[i, 2] = wp.closest_point_edge_edge(p1, p1, p2, q2, 1e-6)
    mid = (p1 + q1) * 0.5
    out[i, 3] = wp.closest_point_edge_edge(p1, q1, mid - wp.vec3(0.0, 0.0, 1.0), mid + wp.vec3(0.5, 0.0, 1.0), 1e-6)
