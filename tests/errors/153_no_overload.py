# expect: 18:12: error: no overload of f() takes (float64)
import warp as wp


@wp.func
def f(x: float) -> float:
    return x


@wp.func
def f(x: int) -> int:
    return x


@wp.kernel
def k(a: wp.array(dtype=wp.float64)):
    i = wp.tid()
    a[i] = f(a[i])
