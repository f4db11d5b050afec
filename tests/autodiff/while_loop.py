# Autodiff of a while loop as Warp 1.19 does it: the replay skips the
# loop, and the reverse sweep runs it again, first iteration to last, on
# the carried variables (its condition evaluated on them), each iteration
# replaying its body and then reversing it.  Exact for the sum here; the
# product is Warp's gradient, not the derivative.
# kern-test: while_loop --adjoint --dim 4 a='arange(float32,4)' out='zeros(float32,4)' out2='zeros(float32,4)' adj_a='zeros(float32,4)' adj_out='ones(float32,4)' adj_out2='full(float32,4,0.5)'
# kern-check: adj_a
import warp as wp


@wp.kernel
def while_loop(a: wp.array(dtype=float), out: wp.array(dtype=float), out2: wp.array(dtype=float)):
    i = wp.tid()
    x = a[i] * 0.5 + 1.0
    k = int(0)
    s = float(0.0)
    p = float(1.0)
    while k < i + 2:
        s = s + x * wp.sin(x)
        p = p * x
        k = k + 1
    out[i] = s
    out2[i] = p
