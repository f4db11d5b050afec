# float32 arithmetic on arrays and a by-value float32 parameter.
# kern-test: scalar_float32 --dim 16 x='arange(float32,16)' y='rand(float32,16,seed=1)' s=2.5 out='zeros(float32,16,4)'
# kern-check: out
import warp as wp


@wp.kernel
def scalar_float32(x: wp.array(dtype=wp.float32), y: wp.array(dtype=wp.float32), s: wp.float32,
                   out: wp.array2d(dtype=wp.float32)):
    i = wp.tid()
    a = x[i]
    b = y[i] + 0.5
    out[i, 0] = a + b * s
    out[i, 1] = a - b
    out[i, 2] = a * b
    out[i, 3] = a / b
