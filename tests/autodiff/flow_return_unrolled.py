# Autodiff of a kernel's return in a range() of constants that Warp
# unrolls: the iteration that returns ends the kernel's work, so neither
# its later statements nor the later iterations nor what follows the loop
# run or are reversed, as Warp's jump; the gradient is the derivative
# (of s carried to the return, and of what the iterations before wrote).
# kern-test: flow_return_unrolled --adjoint --dim 8 a='arange(float32,8)' out='zeros(float32,8)' out2='zeros(float32,8)' adj_a='zeros(float32,8)' adj_out='ones(float32,8)' adj_out2='full(float32,8,0.5)'
# kern-check: adj_a
import warp as wp


@wp.kernel
def flow_return_unrolled(a: wp.array(dtype=float), out: wp.array(dtype=float), out2: wp.array(dtype=float)):
    i = wp.tid()
    x = a[i] * 0.125 + 0.25
    s = float(1.0)
    for k in range(5):
        s = s * x + wp.sin(x * float(k))
        if k == i:
            out[i] = s * s
            return
        if (k + i) % 3 == 0:
            continue
        s = s * 0.75
    out2[i] = s
