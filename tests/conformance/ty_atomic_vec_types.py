# Atomics on arrays of vectors and matrices of several scalar types:
# atomic_add/atomic_sub on vec3d, mat22d and vec2i, atomic_min/atomic_max on
# vec3i and vec4 (componentwise), `+=` on vec3l; values exact in any order.
# kern-test: ty_atomic_vec_types --dim 32 a='rand(int32,32,3,seed=292)' vd='zeros(vec3d,2)' md='zeros(mat22d,2)' vi='zeros(vec2i,3)' mn='full(vec3i,2,100)' mx='full(vec4,2,-100)' vl='zeros(vec3l,2)'
# kern-check: vd
# kern-check: md
# kern-check: vi
# kern-check: mn
# kern-check: mx
# kern-check: vl
import warp as wp


@wp.kernel
def ty_atomic_vec_types(a: wp.array2d(dtype=int), vd: wp.array(dtype=wp.vec3d), md: wp.array(dtype=wp.mat22d),
                        vi: wp.array(dtype=wp.vec2i), mn: wp.array(dtype=wp.vec3i), mx: wp.array(dtype=wp.vec4),
                        vl: wp.array(dtype=wp.vec3l)):
    i = wp.tid()
    x = a[i, 0] - 50
    y = a[i, 1] - 50
    z = a[i, 2] - 50
    wp.atomic_add(vd, i % 2, wp.vec3d(wp.float64(x) * wp.float64(0.5), wp.float64(y), wp.float64(z) * wp.float64(0.25)))
    wp.atomic_sub(md, i % 2, wp.mat22d(wp.float64(x), wp.float64(y), wp.float64(z), wp.float64(i)))
    wp.atomic_add(vi, i % 3, wp.vec2i(x, y * z))
    wp.atomic_min(mn, i % 2, wp.vec3i(x, y, z))
    wp.atomic_max(mx, i % 2, wp.vec4(float(x), float(y), float(z), float(i)))
    vl[i % 2] += wp.vec3l(wp.int64(x) * wp.int64(10000000000), wp.int64(y), wp.int64(z))
