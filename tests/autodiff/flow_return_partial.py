# Autodiff of a kernel's return that ends only some paths of an enclosing
# branch: on the paths that return, what follows the inner `if` and the
# outer one neither runs nor is reversed, as Warp's jump; the others run
# to the end.
# kern-test: flow_return_partial --adjoint --dim 8 a='arange(float32,8)' out='zeros(float32,8)' out2='zeros(float32,8)' adj_a='zeros(float32,8)' adj_out='ones(float32,8)' adj_out2='full(float32,8,0.5)'
# kern-check: adj_a
import warp as wp


@wp.kernel
def flow_return_partial(a: wp.array(dtype=float), out: wp.array(dtype=float), out2: wp.array(dtype=float)):
    i = wp.tid()
    x = a[i] * 0.25 + 0.1
    y = x * x
    if i % 2 == 0:
        y = y + wp.sin(x)
        if i % 4 == 0:
            out2[i] = y * 3.0
            return
        y = y * x
    else:
        if i == 3:
            out2[i] = wp.exp(y)
            return
        y = y + x
    out[i] = y * wp.cos(x)
    out2[i] = y
