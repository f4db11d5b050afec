# wp.intersect_tri_tri on triangle pairs that clearly intersect or clearly
# do not (random triangles, every other one moved away, a small
# triangle piercing a large one), never touching ones.
# kern-test: bi_geom_tri_tri --dim 16 a='rand(vec3,16,6,seed=262)' out='zeros(int32,16,4)'
# kern-check: out
import warp as wp


@wp.kernel
def bi_geom_tri_tri(a: wp.array2d(dtype=wp.vec3), out: wp.array2d(dtype=int)):
    i = wp.tid()
    v0 = a[i, 0]
    v1 = a[i, 1]
    v2 = a[i, 2]
    u0 = a[i, 3]
    u1 = a[i, 4]
    u2 = a[i, 5]
    out[i, 0] = wp.intersect_tri_tri(v0, v1, v2, u0, u1, u2)
    far = wp.vec3(3.0 * float(i % 2), 0.0, 0.0)
    out[i, 1] = wp.intersect_tri_tri(v0, v1, v2, u0 + far, u1 + far, u2 + far)
    c = (v0 + v1 + v2) / 3.0
    n = wp.normalize(wp.cross(v1 - v0, v2 - v0))
    t = wp.normalize(v1 - v0) * 0.01
    out[i, 2] = wp.intersect_tri_tri(v0, v1, v2, c - n * 0.5, c + n * 0.5, c + t)
    out[i, 3] = wp.intersect_tri_tri(v0, v1, v2, c + n * 0.2, c + n * 0.7, c + n * 0.4 + t)
