# Autodiff through @wp.func bodies that return from inside branches (a
# guard, if/else both returning, an elif chain), inlined with their
# returns joined like an if joins a variable.
# kern-test: func_returns --adjoint --dim 8 a='arange(float32,8)' out='zeros(float32,8)' adj_a='zeros(float32,8)' adj_out='full(float32,8,2)'
# kern-check: adj_a
import warp as wp


@wp.func
def piece(x: float):
    if x < 1.0:
        return x * x
    elif x < 2.0:
        return wp.sin(x) + 1.0
    y = x * 3.0
    return y - wp.sqrt(x)


@wp.func
def guard(x: float, c: float):
    if x > c:
        return c
    return x * c


@wp.kernel
def func_returns(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    x = a[i] * 0.45
    out[i] = piece(x) * guard(x, 2.0) + guard(piece(x), 1.5)
