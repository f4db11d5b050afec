# Warp's named constants with run-time values: wp.pi, wp.tau, wp.e, wp.half_pi in
# trigonometry and exponentials, and wp.inf as a sentinel for a running minimum that is
# replaced before it is stored (no infinity reaches the output), -wp.inf for a maximum.
# kern-test: lang_const_named --dim 4 a='rand(float,4,6,seed=151)' out='zeros(float,4,6)'
# kern-check: out
import warp as wp


@wp.kernel
def lang_const_named(a: wp.array2d(dtype=float), out: wp.array2d(dtype=float)):
    i = wp.tid()
    lo = wp.inf
    hi = -wp.inf
    for j in range(6):
        lo = wp.min(lo, a[i, j])
        hi = wp.max(hi, a[i, j])
    out[i, 0] = lo
    out[i, 1] = hi
    out[i, 2] = wp.sin(a[i, 0] * wp.tau) + wp.cos(a[i, 1] * wp.pi)
    out[i, 3] = wp.pow(wp.e, a[i, 2]) - wp.exp(a[i, 2])
    out[i, 4] = wp.atan2(a[i, 3], a[i, 4]) / wp.half_pi
    out[i, 5] = wp.where(lo < wp.inf, lo * 2.0, 0.0)
