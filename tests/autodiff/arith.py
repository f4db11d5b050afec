# Autodiff of straight-line float arithmetic with array loads and stores:
# + - * /, unary minus, a value parameter (no gradient of its own).
# kern-test: arith --adjoint --dim 8 a='arange(float32,8)' b='full(float32,8,1.5)' out='zeros(float32,8)' s=2.5 adj_a='zeros(float32,8)' adj_b='zeros(float32,8)' adj_out='arange(float32,8)' adj_s=0
# kern-check: adj_a
# kern-check: adj_b
# kern-check: adj_out
import warp as wp


@wp.kernel
def arith(a: wp.array(dtype=float), b: wp.array(dtype=float), out: wp.array(dtype=float), s: float):
    i = wp.tid()
    x = a[i] + 1.0
    y = b[i]
    z = x * x * s - y / x + (-y) * 3.0
    z = z * y
    out[i] = z / (1.0 + y)
