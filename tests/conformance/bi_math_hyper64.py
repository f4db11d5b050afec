# Hyperbolic builtins in float64 (sinh, cosh, tanh) over a range that
# includes large arguments, and their float32 twins on the same values.
# kern-test: bi_math_hyper64 --dim 16 x='rand(float64,16,seed=213)' od='zeros(float64,16,3)' of='zeros(float32,16,3)'
# why: OpenCL's tanh is one ulp off glibc (issue #10), also in float64
# kern-check: od rtol=1e-14 atol=1e-15
# kern-check: of rtol=2e-7 atol=1e-7
import warp as wp


@wp.kernel
def bi_math_hyper64(x: wp.array(dtype=wp.float64), od: wp.array2d(dtype=wp.float64), of: wp.array2d(dtype=float)):
    i = wp.tid()
    a = (x[i] - wp.float64(0.5)) * wp.float64(30.0)
    od[i, 0] = wp.sinh(a)
    od[i, 1] = wp.cosh(a)
    od[i, 2] = wp.tanh(a * wp.float64(0.2))
    f = wp.float32(a)
    of[i, 0] = wp.sinh(f)
    of[i, 1] = wp.cosh(f)
    of[i, 2] = wp.tanh(f * 0.2)
