# The trigonometric builtins in float64: sin, cos, tan, asin, acos (with
# arguments clamped to [-1, 1] as Warp does), atan, atan2 in all four
# quadrants, degrees and radians.
# kern-test: bi_math_trig64 --dim 16 x='rand(float64,16,seed=211)' y='rand(float64,16,seed=212)' out='zeros(float64,16,10)'
# why: float64 trigonometric functions of OpenCL and glibc may differ by an ulp
# kern-check: out rtol=1e-14 atol=1e-15
import warp as wp


@wp.kernel
def bi_math_trig64(x: wp.array(dtype=wp.float64), y: wp.array(dtype=wp.float64), out: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    a = (x[i] - wp.float64(0.5)) * wp.float64(8.0)
    b = (y[i] - wp.float64(0.5)) * wp.float64(3.0)
    out[i, 0] = wp.sin(a)
    out[i, 1] = wp.cos(a)
    out[i, 2] = wp.tan(b)
    out[i, 3] = wp.asin(b)
    out[i, 4] = wp.acos(b * wp.float64(0.6))
    out[i, 5] = wp.atan(a)
    out[i, 6] = wp.atan2(a, b)
    out[i, 7] = wp.atan2(-b, a)
    out[i, 8] = wp.degrees(a)
    out[i, 9] = wp.radians(a * wp.float64(40.0))
