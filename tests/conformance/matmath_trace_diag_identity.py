# trace, diag (vector -> diagonal matrix), identity(n, dtype) for 2/3/4 and float64.
# kern-test: matmath_trace_diag_identity --dim 3 a='arange(mat33,3)' v='arange(vec4,3)' tr='zeros(float32,3,2)' dg='zeros(mat44,3)' id2='zeros(mat22,3)' id3d='zeros(mat33d,3)' trd='zeros(float64,3)'
# kern-check: tr
# kern-check: dg
# kern-check: id2
# kern-check: id3d
# kern-check: trd
import warp as wp


@wp.kernel
def matmath_trace_diag_identity(a: wp.array(dtype=wp.mat33), v: wp.array(dtype=wp.vec4), tr: wp.array2d(dtype=wp.float32),
                                dg: wp.array(dtype=wp.mat44), id2: wp.array(dtype=wp.mat22),
                                id3d: wp.array(dtype=wp.mat33d), trd: wp.array(dtype=wp.float64)):
    i = wp.tid()
    tr[i, 0] = wp.trace(a[i])
    tr[i, 1] = wp.trace(wp.identity(n=4, dtype=wp.float32) * float(i + 1))
    dg[i] = wp.diag(v[i])
    id2[i] = wp.identity(n=2, dtype=wp.float32) * 3.0 + wp.diag(wp.vec2(float(i), 1.0))
    id3d[i] = wp.identity(n=3, dtype=wp.float64)
    trd[i] = wp.trace(wp.diag(wp.vec3d(wp.float64(0.5), wp.float64(i), wp.float64(0.25))))
