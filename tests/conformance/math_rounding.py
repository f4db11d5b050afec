# floor ceil round trunc frac on halves and negatives. Warp: round() rounds half away
# from zero (round(-2.5) = -3, round(0.5) = 1); frac(x) = x - trunc(x) (frac(-1.25) = -0.25).
# kern-test: math_rounding --dim 12 x='arange(float32,12)' y='arange(float64,12)' of='zeros(float32,12,5)' od='zeros(float64,12,5)'
# kern-check: of
# kern-check: od
import warp as wp


@wp.kernel
def math_rounding(x: wp.array(dtype=wp.float32), y: wp.array(dtype=wp.float64), of: wp.array2d(dtype=wp.float32),
                  od: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    a = x[i] * 0.5 - 2.75      # -2.75 -2.25 ... 2.75 (quarters)
    b = x[i] * 0.5 - 2.5       # -2.5 -2.0 -1.5 ... 3.0 (exact halves and integers)
    of[i, 0] = wp.floor(a) + wp.floor(b) * 100.0
    of[i, 1] = wp.ceil(a) + wp.ceil(b) * 100.0
    of[i, 2] = wp.round(a) + wp.round(b) * 100.0
    of[i, 3] = wp.trunc(a) + wp.trunc(b) * 100.0
    of[i, 4] = wp.frac(a) + wp.frac(b) * 100.0
    c = y[i] * wp.float64(0.5) - wp.float64(2.5)
    od[i, 0] = wp.floor(c)
    od[i, 1] = wp.ceil(c)
    od[i, 2] = wp.round(c)
    od[i, 3] = wp.trunc(c)
    od[i, 4] = wp.frac(c - wp.float64(0.25))
