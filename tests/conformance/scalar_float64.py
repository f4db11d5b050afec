# float64 arithmetic, float64 parameter, wp.float64(...) constructor for literals.
# kern-test: scalar_float64 --dim 16 x='arange(float64,16)' y='rand(float64,16,seed=2)' s=0.1 out='zeros(float64,16,5)'
# kern-check: out
import warp as wp


@wp.kernel
def scalar_float64(x: wp.array(dtype=wp.float64), y: wp.array(dtype=wp.float64), s: wp.float64,
                   out: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    a = x[i]
    b = y[i] + wp.float64(0.25)
    out[i, 0] = a + b * s
    out[i, 1] = a - b
    out[i, 2] = a * b
    out[i, 3] = a / b
    third = wp.float64(1.0) / wp.float64(3.0)
    out[i, 4] = third * a
