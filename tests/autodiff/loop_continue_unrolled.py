# Autodiff of continue in a range() of constants that Warp unrolls (at
# most 16 iterations, no break): Warp guards the rest of each unrolled
# iteration after a continue, so the gradient is the derivative, also of
# what the iteration computed before its continue (out2) and of the
# variable it carries (s).
# kern-test: loop_continue_unrolled --adjoint --dim 4 a='arange(float32,4)' out='zeros(float32,4)' out2='zeros(float32,4)' adj_a='zeros(float32,4)' adj_out='ones(float32,4)' adj_out2='full(float32,4,0.5)'
# kern-check: adj_a
import warp as wp


@wp.kernel
def loop_continue_unrolled(a: wp.array(dtype=float), out: wp.array(dtype=float), out2: wp.array(dtype=float)):
    i = wp.tid()
    x = a[i] * 0.5 - 0.75
    s = float(1.0)
    for k in range(6):
        y = x * float(k)
        out2[i] += wp.sin(y)
        if (k + i) % 3 == 0:
            s = s * x + 1.0
            continue
        else:
            s = s + wp.cos(y) * s
        if k == 4:
            continue
        s = s * 0.5
    out[i] = s
