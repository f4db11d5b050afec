# Autodiff of continue in a dynamic loop as Warp 1.19 does it: in the
# reverse sweep each iteration replays its body, and a continue reached in
# the replay goes on to the next (earlier) iteration, so the iteration's
# statements before the continue get no gradient either (here the write
# to out2), and the carried variable keeps the value it had at the jump.
# kern-test: loop_continue --adjoint --dim 4 a='arange(float32,4)' n=7 out='zeros(float32,4)' out2='zeros(float32,4)' adj_a='zeros(float32,4)' adj_n=0 adj_out='ones(float32,4)' adj_out2='full(float32,4,0.5)'
# kern-check: adj_a
import warp as wp


@wp.kernel
def loop_continue(a: wp.array(dtype=float), n: int, out: wp.array(dtype=float), out2: wp.array(dtype=float)):
    i = wp.tid()
    x = a[i] * 0.5 - 0.75
    s = float(0.0)
    for k in range(n):
        y = x * float(k)
        out2[i] += wp.sin(y)
        if (k + i) % 3 == 0:
            s = s + x * x
            continue
        s = s + wp.cos(y)
    out[i] = s
