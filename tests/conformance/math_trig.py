# sin cos tan asin acos atan atan2 in float32 and float64. asin/acos clamp their argument to [-1, 1].
# kern-test: math_trig --dim 8 x='rand(float32,8,seed=28)' y='rand(float64,8,seed=28)' of='zeros(float32,8,9)' od='zeros(float64,8,7)'
# why: transcendental functions; libm and CUDA differ by a few ulp.
# kern-check: of rtol=2e-6 atol=1e-6
# kern-check: od rtol=1e-13 atol=1e-14
import warp as wp


@wp.kernel
def math_trig(x: wp.array(dtype=wp.float32), y: wp.array(dtype=wp.float64), of: wp.array2d(dtype=wp.float32),
              od: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    a = x[i] * 2.0 - 1.0
    of[i, 0] = wp.sin(a * 3.0)
    of[i, 1] = wp.cos(a * 3.0)
    of[i, 2] = wp.tan(a)
    of[i, 3] = wp.asin(a)
    of[i, 4] = wp.acos(a)
    of[i, 5] = wp.atan(a * 5.0)
    of[i, 6] = wp.atan2(a, x[i] - 0.5)
    of[i, 7] = wp.acos(a * 3.0)     # clamped
    of[i, 8] = wp.asin(-2.0)        # clamped: -pi/2
    b = y[i] * wp.float64(2.0) - wp.float64(1.0)
    od[i, 0] = wp.sin(b * wp.float64(3.0))
    od[i, 1] = wp.cos(b * wp.float64(3.0))
    od[i, 2] = wp.tan(b)
    od[i, 3] = wp.asin(b)
    od[i, 4] = wp.acos(b)
    od[i, 5] = wp.atan(b * wp.float64(5.0))
    od[i, 6] = wp.atan2(b, y[i] - wp.float64(0.5))
