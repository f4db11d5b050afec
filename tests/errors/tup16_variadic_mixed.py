# expect: 12:14: error: argument 1 of f() ('values') must be tuple[int32, ...], got tuple(int32, float32)
import warp as wp


@wp.func
def f(values: tuple[int, ...]):
    return values[0]


@wp.kernel
def k(a: wp.array(dtype=int)):
    a[0] = f((1, 2.0))
