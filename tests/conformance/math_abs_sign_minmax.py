# abs, sign, min, max, clamp on float32, float64 and int32.
# Warp: sign(x) = -1 if x < 0 else 1, so sign(0.0) == 1 and sign(0) == 1.
# kern-test: math_abs_sign_minmax --dim 7 x='arange(float32,7)' k='arange(int32,7)' of='zeros(float32,7,5)' oi='zeros(int32,7,5)' od='zeros(float64,7,3)'
# kern-check: of
# kern-check: oi
# kern-check: od
import warp as wp


@wp.kernel
def math_abs_sign_minmax(x: wp.array(dtype=wp.float32), k: wp.array(dtype=wp.int32), of: wp.array2d(dtype=wp.float32),
                         oi: wp.array2d(dtype=wp.int32), od: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    v = x[i] * 0.75 - 2.25     # -2.25 .. 2.25, includes 0.0
    of[i, 0] = wp.abs(v)
    of[i, 1] = wp.sign(v)
    of[i, 2] = wp.min(v, 0.5)
    of[i, 3] = wp.max(v, -0.5)
    of[i, 4] = wp.clamp(v, -1.0, 1.25)
    n = k[i] - 3
    oi[i, 0] = wp.abs(n)
    oi[i, 1] = wp.sign(n)
    oi[i, 2] = wp.min(n, 1)
    oi[i, 3] = wp.max(n, -1)
    oi[i, 4] = wp.clamp(n, -2, 2)
    d = wp.float64(v)
    od[i, 0] = wp.abs(d)
    od[i, 1] = wp.sign(d)
    od[i, 2] = wp.clamp(d, wp.float64(-1.0), wp.float64(1.0))
