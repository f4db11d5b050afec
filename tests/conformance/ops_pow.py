# `**` on floats (float32, float64); both operands must have the same float type (no int exponent).
# kern-test: ops_pow --dim 6 x='arange(float32,6)' y='arange(float64,6)' of='zeros(float32,6,4)' od='zeros(float64,6,2)'
# why: pow is a transcendental function; libm/CUDA implementations differ by a few ulp.
# kern-check: of rtol=1e-5 atol=1e-6
# kern-check: od rtol=1e-12
import warp as wp


@wp.kernel
def ops_pow(x: wp.array(dtype=wp.float32), y: wp.array(dtype=wp.float64), of: wp.array2d(dtype=wp.float32),
            od: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    a = x[i] * 0.5 + 0.5
    of[i, 0] = a ** 2.0
    of[i, 1] = a ** 0.5
    of[i, 2] = 2.0 ** a
    of[i, 3] = (-a) ** 3.0
    b = y[i] + wp.float64(1.0)
    od[i, 0] = b ** wp.float64(3.0)
    od[i, 1] = b ** wp.float64(-1.5)
