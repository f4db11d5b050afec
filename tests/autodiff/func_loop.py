# A loop Warp does not unroll inside a @wp.func, carrying floats, as Warp
# 1.19 does it (Note [loops in functions]): the caller's replay runs the
# function's forward code, the loop included, so the caller reads the
# function's true result (p below is x^n, which out's gradient takes);
# the function's adjoint is Warp's adjoint of its body, whose replay skips
# the loop and whose reverse loop replays each iteration (exact for the
# sum, Warp's gradient for the product, as loop_carried.py).
# kern-test: func_loop --adjoint --dim 5 a='arange(float32,5)' n=3 out='zeros(float32,5)' out2='zeros(float32,5)' adj_a='zeros(float32,5)' adj_n=0 adj_out='ones(float32,5)' adj_out2='full(float32,5,0.5)'
# kern-check: adj_a
import warp as wp


@wp.func
def power(x: float, n: int):
    s = float(1.0)
    for j in range(n):
        s = s * x
    return s


@wp.func
def sines(x: float, n: int):
    t = float(0.0)
    for j in range(n):
        t = t + wp.sin(x * float(j + 1))
    return t * x


@wp.kernel
def func_loop(a: wp.array(dtype=float), n: int, out: wp.array(dtype=float), out2: wp.array(dtype=float)):
    i = wp.tid()
    x = a[i] * 0.25 + 0.5
    p = power(x, n)
    out[i] = p * x + p * p
    q = sines(x, n + i)
    out2[i] = q * q + wp.cos(q)
