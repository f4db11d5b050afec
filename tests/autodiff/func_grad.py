# @wp.func_grad: a user function's custom adjoint, as Warp 1.19 uses it.
# The adjoint of a call of safe_log takes its gradient from the custom
# adjoint (which clamps, unlike the derivative), reading the replayed
# arguments and the result's adjoint (adj_ret) and adding into
# wp.adjoint[x] (also reading it); the call's result feeds later
# arithmetic, and the argument is used again, so the custom adjoint adds
# to a gradient that is already there.
# kern-test: func_grad --adjoint --dim 6 a='arange(float32,6)' out='zeros(float32,6)' adj_a='zeros(float32,6)' adj_out='ones(float32,6)'
# kern-check: adj_a
import warp as wp


@wp.func
def safe_log(x: float, s: float):
    return wp.log(x) * s


@wp.func_grad(safe_log)
def adj_safe_log(x: float, s: float, adj_ret: float):
    g = adj_ret * s / wp.max(x, 0.5)
    if x > 4.0:
        g = g * 2.0
    wp.adjoint[x] += g
    wp.adjoint[s] += wp.adjoint[x] * 0.0 + adj_ret


@wp.kernel
def func_grad(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    x = a[i] * 0.5 + 0.25
    y = safe_log(x, x * x) * 3.0
    out[i] = y + x * x
