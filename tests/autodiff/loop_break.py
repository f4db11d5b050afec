# Autodiff of break in loops as Warp 1.19 does it: a loop with a break is
# never unrolled (here range(5) too); in the reverse sweep its iterations
# replay last to first, and a break reached in the replay ends the reverse
# loop, so only the iterations after the last one that breaks get a
# gradient (Warp's gradient, not the derivative).  A while loop the same.
# kern-test: loop_break --adjoint --dim 4 a='arange(float32,4)' n=6 out='zeros(float32,4)' out2='zeros(float32,4)' adj_a='zeros(float32,4)' adj_n=0 adj_out='ones(float32,4)' adj_out2='full(float32,4,0.5)'
# kern-check: adj_a
import warp as wp


@wp.kernel
def loop_break(a: wp.array(dtype=float), n: int, out: wp.array(dtype=float), out2: wp.array(dtype=float)):
    i = wp.tid()
    x = a[i] * 0.5 - 0.5
    for k in range(5):
        if k == 4 - i:
            break
        out2[i] += x * float(k + 1)
    s = float(0.0)
    k = int(0)
    while k < n:
        s = s + wp.sin(x * float(k))
        if k > i + 1:
            break
        k = k + 1
    out[i] = s
