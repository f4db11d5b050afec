# Autodiff of kernels that return early: a guard at the top, a return at
# the end of one branch (what follows it neither runs nor is reversed),
# and a return in both branches of a nested if.
# kern-test: early_return --adjoint --dim 8 a='arange(float32,8)' out='zeros(float32,8)' n=6 adj_a='zeros(float32,8)' adj_out='full(float32,8,1.5)' adj_n=0
# kern-check: adj_a
import warp as wp


@wp.kernel
def early_return(a: wp.array(dtype=float), out: wp.array(dtype=float), n: int):
    i = wp.tid()
    x = a[i] * 0.5
    if i >= n:
        return
    y = x * x
    if y > 4.0:
        out[i] = y * 3.0
        return
    if i == 1:
        if x > 0.0:
            out[i] = wp.exp(x)
            return
        else:
            return
    out[i] = wp.sin(y) + x
