# A chain of @wp.func calls five deep (no recursion), each level transforming its
# argument and calling the next, with a function called from two levels and a function
# used as another's argument.
# kern-test: lang_func_call_chain --dim 6 x='rand(float,6,seed=271)' out='zeros(float,6,3)'
# kern-check: out
import warp as wp


@wp.func
def f5(x: float) -> float:
    return x * x + 0.5


@wp.func
def f4(x: float) -> float:
    return f5(x) - x


@wp.func
def f3(x: float, n: int) -> float:
    s = f4(x)
    for k in range(n):
        s = s + f5(float(k) * x)
    return s


@wp.func
def f2(x: float) -> float:
    return f3(x, 2) * 0.5 + f4(x * 2.0)


@wp.func
def f1(x: float) -> float:
    return f2(f2(x) * 0.25)


@wp.kernel
def lang_func_call_chain(x: wp.array(dtype=float), out: wp.array2d(dtype=float)):
    i = wp.tid()
    out[i, 0] = f1(x[i])
    out[i, 1] = f3(x[i], i)
    out[i, 2] = f5(f4(f5(x[i])))
