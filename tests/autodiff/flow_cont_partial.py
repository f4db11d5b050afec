# Autodiff of a continue that ends only some paths of its branch in a
# range() of constants that Warp unrolls: the rest of the iteration (after
# the inner `if` and after the outer one) runs only on the paths that did
# not continue, so the gradient is the derivative, also of what each
# iteration computed before its continue (out2) and of the carried s.
# kern-test: flow_cont_partial --adjoint --dim 6 a='arange(float32,6)' out='zeros(float32,6)' out2='zeros(float32,6)' adj_a='zeros(float32,6)' adj_out='ones(float32,6)' adj_out2='full(float32,6,0.5)'
# kern-check: adj_a
import warp as wp


@wp.kernel
def flow_cont_partial(a: wp.array(dtype=float), out: wp.array(dtype=float), out2: wp.array(dtype=float)):
    i = wp.tid()
    x = a[i] * 0.25 - 0.5
    s = float(1.0)
    for k in range(5):
        y = x * float(k + 1)
        if (k + i) % 2 == 0:
            s = s * x + 0.5
            if (k + i) % 4 == 0:
                out2[i] += wp.sin(y)
                continue
            s = s + wp.cos(y)
        else:
            if k == 3:
                continue
            s = s * 1.5
        s = s * y + 0.25
    out[i] = s
