# wp.argmin and wp.argmax of vectors (uint32; NaN slots skipped, the first extremum on
# ties, 0 when all are NaN), wp.nonzero of scalars, wp.get_diag of square matrices.
# kern-test: vec_argmin_diag_nonzero --dim 6 x='rand(float32,6,4,seed=31)' n='rand(int32,6,3,seed=32)' oi='zeros(uint32,6,6)' of='zeros(float32,6,3)' ov='zeros(vec3,6)'
# kern-check: oi
# kern-check: of
# kern-check: ov
import warp as wp


@wp.kernel
def vec_argmin_diag_nonzero(x: wp.array2d(dtype=float), n: wp.array2d(dtype=int), oi: wp.array2d(dtype=wp.uint32),
                            of: wp.array2d(dtype=float), ov: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    v = wp.vec4(x[i, 0], x[i, 1], x[i, 2], x[i, 3])
    w = wp.vec3i(n[i, 0], n[i, 1], n[i, 0])
    oi[i, 0] = wp.argmin(v)
    oi[i, 1] = wp.argmax(v)
    oi[i, 2] = wp.argmin(w)
    oi[i, 3] = wp.argmax(w)
    oi[i, 4] = wp.argmin(wp.vec3(wp.nan, 2.0, 1.0)) + wp.argmax(wp.vec3(wp.nan, 2.0, 1.0)) * wp.uint32(10)
    oi[i, 5] = wp.argmax(wp.vec2(wp.nan, wp.nan)) + wp.argmin(wp.vec3(1.0, 1.0, 0.5 + float(i)))
    of[i, 0] = wp.nonzero(x[i, 0] - 0.5)
    of[i, 1] = wp.nonzero(0.0) + wp.nonzero(-0.0)
    of[i, 2] = float(wp.nonzero(n[i, 2] % 3))
    m = wp.mat33(x[i, 0], 1.0, 2.0, 3.0, x[i, 1], 4.0, 5.0, 6.0, x[i, 2])
    ov[i] = wp.get_diag(m)
