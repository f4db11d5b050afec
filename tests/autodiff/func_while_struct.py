# A @wp.func returning a struct, called in a while loop's condition: the
# call is evaluated again before each test of the condition (also after a
# continue), on the variables as the iteration left them, in the forward
# code, in the tangent and in Warp 1.19's adjoint, whose reverse sweep
# runs the loop again from its first iteration.
# kern-test: func_while_struct --adjoint --dim 5 a='arange(float32,5)' out='zeros(float32,5)' adj_a='zeros(float32,5)' adj_out='ones(float32,5)'
# kern-check: adj_a
import warp as wp


@wp.struct
class State:
    x: float
    k: int


@wp.func
def state(x: float, k: int):
    s = State()
    s.x = x * 0.5
    s.k = k
    return s


@wp.kernel
def func_while_struct(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    x = a[i] * 0.4 + 1.0
    k = int(0)
    t = float(0.0)
    while state(x, k).x < 3.0 and state(x, k).k < 6:
        x = x * 1.3 + 0.1
        k = k + 1
        t = t + wp.sin(x)
        if k % 2 == 1:
            continue
        t = t + x * 0.5
    out[i] = t + x
