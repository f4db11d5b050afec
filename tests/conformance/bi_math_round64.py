# Rounding builtins in float64 on values with halves of both signs: floor,
# ceil, trunc, round (half away from zero), rint (half to even), frac
# (x - trunc(x)), and int() of each.
# kern-test: bi_math_round64 --dim 16 x='rand(float64,16,seed=215)' out='zeros(float64,16,7)' oi='zeros(int32,16,2)'
# kern-check: out
# kern-check: oi
import warp as wp


@wp.kernel
def bi_math_round64(x: wp.array(dtype=wp.float64), out: wp.array2d(dtype=wp.float64), oi: wp.array2d(dtype=int)):
    i = wp.tid()
    a = (x[i] - wp.float64(0.5)) * wp.float64(9.0)
    h = wp.float64(i - 8) + wp.float64(0.5)
    out[i, 0] = wp.floor(a)
    out[i, 1] = wp.ceil(a)
    out[i, 2] = wp.trunc(a)
    out[i, 3] = wp.round(a) + wp.round(h) * wp.float64(100.0)
    out[i, 4] = wp.rint(a) + wp.rint(h) * wp.float64(100.0)
    out[i, 5] = wp.frac(a)
    out[i, 6] = wp.frac(h)
    oi[i, 0] = int(a)
    oi[i, 1] = int(wp.round(h)) * 100 + int(wp.rint(h))
