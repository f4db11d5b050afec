# Autodiff in float64: arithmetic and math builtins, and float casts.
# kern-test: math64 --adjoint --dim 8 a='arange(float64,8)' b='arange(float32,8)' out='zeros(float64,8)' adj_a='zeros(float64,8)' adj_b='zeros(float32,8)' adj_out='full(float64,8,0.5)'
# kern-check: adj_a
# kern-check: adj_b
import warp as wp


@wp.kernel
def math64(a: wp.array(dtype=wp.float64), b: wp.array(dtype=wp.float32), out: wp.array(dtype=wp.float64)):
    i = wp.tid()
    x = a[i] * wp.float64(0.1) + wp.float64(0.2)
    y = wp.float64(b[i]) * wp.float64(0.25)
    out[i] = wp.sin(x) * wp.exp(y) + wp.sqrt(x * y + wp.float64(1.0)) - wp.atan2(y, x)
