# Autodiff of a return in a @wp.func's range() of constants that Warp
# unrolls: the iteration that returns ends the function, so neither its
# later iterations nor the statements after the loop run or are
# reversed; the gradient is the derivative, as Warp's.  The second
# function returns from a loop nested in an unrolled one, after a
# continue.
# kern-test: flow_return_func --adjoint --dim 8 a='arange(float32,8)' out='zeros(float32,8)' out2='zeros(float32,8)' adj_a='zeros(float32,8)' adj_out='ones(float32,8)' adj_out2='full(float32,8,0.5)'
# kern-check: adj_a
import warp as wp


@wp.func
def first_over(x: float, t: float):
    s = float(1.0)
    for k in range(4):
        s = s * x + 0.5
        if s > t:
            return s * 3.0
    return s + x


@wp.func
def nested(x: float, i: int):
    s = x
    for k in range(3):
        for m in range(2):
            s = s * x + float(m)
            if k == 1 and (i + m) % 2 == 0:
                s = wp.sin(s)
                continue
            if k * 2 + m == i:
                return s * s
        s = s * 0.5
    return s


@wp.kernel
def flow_return_func(a: wp.array(dtype=float), out: wp.array(dtype=float), out2: wp.array(dtype=float)):
    i = wp.tid()
    x = a[i] * 0.23 + 0.41
    out[i] = first_over(x, 2.0) + first_over(x * 0.5, 1.2)
    out2[i] = nested(x * 0.5, i)
