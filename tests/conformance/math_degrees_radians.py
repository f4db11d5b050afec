# degrees / radians in float32 and float64.
# kern-test: math_degrees_radians --dim 8 x='arange(float32,8)' y='arange(float64,8)' of='zeros(float32,8,2)' od='zeros(float64,8,2)'
# kern-check: of
# kern-check: od
import warp as wp


@wp.kernel
def math_degrees_radians(x: wp.array(dtype=wp.float32), y: wp.array(dtype=wp.float64), of: wp.array2d(dtype=wp.float32),
                         od: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    of[i, 0] = wp.degrees(x[i] * 0.5)
    of[i, 1] = wp.radians(x[i] * 45.0)
    od[i, 0] = wp.degrees(y[i] * wp.float64(0.5))
    od[i, 1] = wp.radians(y[i] * wp.float64(45.0))
