# expect: 19:9: error: 'f' already holds the function 'a'; binding it to another function is not supported
import warp as wp


@wp.func
def a(x: float):
    return x


@wp.func
def b(x: float):
    return -x


@wp.kernel
def k(o: wp.array(dtype=float), c: int):
    f = a
    if c > 0:
        f = b
    o[0] = f(1.0)
