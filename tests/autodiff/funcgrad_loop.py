# @wp.func_grad with loops Warp does not unroll (a range() of a runtime
# count with a break, and a while loop): the custom adjoint runs them as
# written, its variables carried through the iterations, as Warp 1.19's
# custom adjoint does.
# kern-test: funcgrad_loop --adjoint --dim 6 a='arange(float32,6)' n=4 out='zeros(float32,6)' adj_a='zeros(float32,6)' adj_n=0 adj_out='ones(float32,6)'
# kern-check: adj_a
import warp as wp


@wp.func
def power(x: float, n: int):
    return wp.pow(x, float(n))


@wp.func_grad(power)
def adj_power(x: float, n: int, adj_ret: float):
    # a made-up rule (a truncated series, not the derivative), so the test
    # sees it is used
    g = float(0.0)
    t = float(1.0)
    for k in range(n):
        g = g + t * float(k + 1)
        t = t * x
        if t > 20.0:
            break
    h = adj_ret
    while h > 4.0:
        h = h * 0.5
    wp.adjoint[x] += g * h


@wp.kernel
def funcgrad_loop(a: wp.array(dtype=float), n: int, out: wp.array(dtype=float)):
    i = wp.tid()
    x = a[i] * 0.6 + 0.5
    out[i] = power(x, n) * (x * 3.0) + power(x, 2)
