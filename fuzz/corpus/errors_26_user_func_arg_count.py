# expect: 13:12: error: g() takes 1 argument, got 2
import warp as wp


@wp.func
def g(x: float) -> float:
    return x


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = g(a[i], 2.0)
