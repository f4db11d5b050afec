# expect: 13:12: error: f() is missing a value for 'x'
import warp as wp


@wp.func
def f(x: float, y: float = 1.0) -> float:
    return x + y


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = f(y=2.0)
