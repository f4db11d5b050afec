# Functions calling functions (3 levels), functions with vector/matrix parameters, a
# function that loops, and a function with no return value writing to an array.
# kern-test: func_calls_func --dim 8 x='arange(float32,8)' out='zeros(float32,8,3)' side='zeros(int32,8)'
# kern-check: out
# kern-check: side
import warp as wp


@wp.func
def sq(a: float) -> float:
    return a * a


@wp.func
def norm2(v: wp.vec2) -> float:
    return sq(v.x) + sq(v.y)


@wp.func
def quad(m: wp.mat22, v: wp.vec2) -> float:
    return norm2(m @ v) + sq(1.0)


@wp.func
def fact(n: int) -> int:
    r = int(1)
    for k in range(2, n + 1):
        r = r * k
    return r


@wp.func
def store(a: wp.array(dtype=wp.int32), i: int, v: int):
    a[i] = v


@wp.kernel
def func_calls_func(x: wp.array(dtype=wp.float32), out: wp.array2d(dtype=wp.float32), side: wp.array(dtype=wp.int32)):
    i = wp.tid()
    v = wp.vec2(x[i], 1.0)
    out[i, 0] = norm2(v)
    out[i, 1] = quad(wp.mat22(1.0, 2.0, 0.0, 1.0), v)
    out[i, 2] = float(fact(i))
    store(side, i, fact(i % 5) + 1)
