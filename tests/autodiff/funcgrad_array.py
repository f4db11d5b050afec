# @wp.func_grad of a function with an array parameter: as in Warp 1.19,
# the custom adjoint reads the array (its forward values) and adds into
# wp.adjoint[a][i], the array's gradient, beside wp.adjoint[x] of a
# scalar; the array is also read by the kernel itself, so both reach
# adj_a.
# kern-test: funcgrad_array --adjoint --dim 5 a='arange(float32,5)' out='zeros(float32,5)' adj_a='zeros(float32,5)' adj_out='ones(float32,5)'
# kern-check: adj_a
import warp as wp


@wp.func
def pick(a: wp.array(dtype=float), i: int, x: float):
    return a[i] * x


@wp.func_grad(pick)
def adj_pick(a: wp.array(dtype=float), i: int, x: float, adj_ret: float):
    # a made-up rule (not the derivative), so the test sees it is used
    wp.adjoint[x] += a[i] * adj_ret * 2.0
    j = (i + 1) % a.shape[0]
    wp.adjoint[a][j] += x * adj_ret * 10.0


@wp.kernel
def funcgrad_array(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    x = a[i] * 0.5 + 1.0
    out[i] = pick(a, i, x * x) + x
