# The error functions in float64: erf, erfc over both tails, erfinv and
# erfcinv (kern's own method, a few ulp from Warp's CPU build), and their
# round trips.
# kern-test: bi_math_erf64 --dim 16 x='rand(float64,16,seed=282)' out='zeros(float64,16,6)'
# why: erfinv/erfcinv in float64 are within a few ulp of Warp's (docs/WARP-BUILTINS.md)
# kern-check: out rtol=1e-13 atol=1e-14
import warp as wp


@wp.kernel
def bi_math_erf64(x: wp.array(dtype=wp.float64), out: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    a = (x[i] - wp.float64(0.5)) * wp.float64(8.0)
    p = x[i] * wp.float64(1.8) - wp.float64(0.9)
    out[i, 0] = wp.erf(a)
    out[i, 1] = wp.erfc(a)
    out[i, 2] = wp.erfinv(p)
    out[i, 3] = wp.erfcinv(p + wp.float64(1.0))
    out[i, 4] = wp.erf(wp.erfinv(p))
    out[i, 5] = wp.erfc(a * wp.float64(0.25)) + wp.erf(-a)
