# Autodiff of a kernel's return in a range() Warp unrolls, nested in a
# dynamic range(): the unrolled loop's iterations end their paths at the
# return (Note [unrolled returns]), and in the dynamic loop the return is
# Warp's jump (Note [adjoint jumps]): Warp's gradient, not the derivative.
# kern-test: flow_return_nested --adjoint --dim 8 a='arange(float32,8)' out='zeros(float32,8)' out2='zeros(float32,8)' n=3 adj_a='zeros(float32,8)' adj_out='ones(float32,8)' adj_out2='full(float32,8,0.5)' adj_n=0
# kern-check: adj_a
import warp as wp


@wp.kernel
def flow_return_nested(a: wp.array(dtype=float), out: wp.array(dtype=float), out2: wp.array(dtype=float), n: int):
    i = wp.tid()
    x = a[i] * 0.125 + 0.25
    s = float(1.0)
    for j in range(n):
        s = s + x * 0.5
        for k in range(3):
            s = s * x + wp.sin(x * float(k))
            if k + j * 3 == i:
                out[i] = s * s
                return
        out2[i] += s
    out[i] = s
