# sinh cosh tanh in float32 and float64.
# kern-test: math_hyperbolic --dim 8 x='rand(float32,8,seed=29)' y='rand(float64,8,seed=29)' of='zeros(float32,8,3)' od='zeros(float64,8,3)'
# why: transcendental functions; libm and CUDA differ by a few ulp.
# kern-check: of rtol=2e-6 atol=1e-6
# kern-check: od rtol=1e-13 atol=1e-14
import warp as wp


@wp.kernel
def math_hyperbolic(x: wp.array(dtype=wp.float32), y: wp.array(dtype=wp.float64), of: wp.array2d(dtype=wp.float32),
                    od: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    a = x[i] * 6.0 - 3.0
    of[i, 0] = wp.sinh(a)
    of[i, 1] = wp.cosh(a)
    of[i, 2] = wp.tanh(a)
    b = y[i] * wp.float64(6.0) - wp.float64(3.0)
    od[i, 0] = wp.sinh(b)
    od[i, 1] = wp.cosh(b)
    od[i, 2] = wp.tanh(b)
