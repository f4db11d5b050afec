# Autodiff of a kernel's return inside loops Warp does not unroll, as
# Warp 1.19 does it: the adjoint's replay skips the loops, so what follows
# them is replayed and reversed whether or not the forward returned; in
# the reverse loop each iteration replays its body, and a return reached
# there ends the iteration's replay and reverses what the iteration did
# before it (the loop-carried variable is not updated on that path); the
# reverse loop then goes on to the earlier iterations.  Warp's gradient,
# not the derivative.
# kern-test: loop_return --adjoint --dim 4 a='arange(float32,4)' n=5 out='zeros(float32,4)' out2='zeros(float32,4)' adj_a='zeros(float32,4)' adj_n=0 adj_out='ones(float32,4)' adj_out2='full(float32,4,0.5)'
# kern-check: adj_a
import warp as wp


@wp.kernel
def loop_return(a: wp.array(dtype=float), n: int, out: wp.array(dtype=float), out2: wp.array(dtype=float)):
    i = wp.tid()
    x = a[i] * 0.5 + 0.25
    s = float(0.0)
    for k in range(n):
        out2[i] += wp.sin(x * float(k))
        if k == i + 1:
            s = s + x * 3.0
            return
        s = s + x * x
    if x > 0.5:
        for k in range(n, 0, -1):
            if k + i == 6:
                return
            s = s + wp.cos(x) * float(k)
    out[i] = s
