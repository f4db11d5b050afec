# expect: 13:14: error: argument 1 of g() ('x') must be float32, got int32
import warp as wp


@wp.func
def g(x: float) -> float:
    return x


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = g(i)
