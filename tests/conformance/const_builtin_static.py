# Warp's named constants (wp.pi, wp.tau, wp.e, wp.half_pi, wp.phi, wp.ln2, wp.ln10,
# wp.log2e, wp.log10e, wp.inf, wp.nan and their upper-case twins) as float32 values in
# kernels, and wp.static() of arithmetic on module-level values and constants.
# kern-test: const_builtin_static --dim 3 out='zeros(float32,3,16)' oi='zeros(int32,3,3)' ov='zeros(vec3,3)'
# kern-check: out
# kern-check: oi
# kern-check: ov
import warp as wp

N = 5
SCALE = 1.5
GRID = wp.constant(wp.vec3(1.0, 2.0, 3.0))


@wp.kernel
def const_builtin_static(out: wp.array2d(dtype=float), oi: wp.array2d(dtype=int), ov: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    x = float(i + 1)
    out[i, 0] = wp.pi * x
    out[i, 1] = wp.tau * x
    out[i, 2] = wp.e * x
    out[i, 3] = wp.half_pi * x
    out[i, 4] = wp.phi * x
    out[i, 5] = wp.ln2 * x
    out[i, 6] = wp.ln10 * x
    out[i, 7] = wp.log2e * x
    out[i, 8] = wp.log10e * x
    out[i, 9] = wp.PI + wp.TAU + wp.E + wp.HALF_PI + wp.PHI
    out[i, 10] = 1.0 if wp.isinf(wp.inf) else 0.0
    out[i, 11] = 1.0 if wp.isnan(wp.nan) else 0.0
    out[i, 12] = 1.0 if wp.isinf(wp.INF) and wp.isnan(wp.NAN) and -wp.inf < 0.0 else 0.0
    out[i, 13] = wp.static(SCALE * 2.0 + float(N)) * x
    out[i, 14] = wp.static(wp.pi / 2.0)
    out[i, 15] = wp.static(SCALE)
    oi[i, 0] = wp.static(N * N - 1) + i
    oi[i, 1] = wp.static((1 << N) | 3)
    oi[i, 2] = wp.static(N // 2)
    ov[i] = wp.static(GRID) * x
