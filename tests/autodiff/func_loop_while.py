# A while loop inside a @wp.func, and a function with a dynamic loop called
# from another function and from a kernel's own dynamic loop, as Warp 1.19
# does them (Note [loops in functions]): every replay of a call runs the
# function's forward code, its loops included, and the function's adjoint
# replays its body with its loops skipped, then reverses it.
# kern-test: func_loop_while --adjoint --dim 4 a='arange(float32,4)' n=2 out='zeros(float32,4)' adj_a='zeros(float32,4)' adj_n=0 adj_out='ones(float32,4)'
# kern-check: adj_a
import warp as wp


@wp.func
def halve(x: float):
    h = x
    k = int(0)
    while h > 1.0:
        h = h * 0.5 + 0.01 * x
        k = k + 1
    return h + float(k)


@wp.func
def twice(x: float, n: int):
    y = halve(x * 3.0)
    s = float(0.0)
    for j in range(n):
        s = s + y * x
    return s + y


@wp.kernel
def func_loop_while(a: wp.array(dtype=float), n: int, out: wp.array(dtype=float)):
    i = wp.tid()
    x = a[i] * 0.7 + 0.3
    acc = float(0.0)
    for j in range(n):
        acc = acc + twice(x, j + 1) * x
    out[i] = acc * halve(x * 5.0)
