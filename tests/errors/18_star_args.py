# expect: 14:14: error: argument unpacking with '**' is not supported
import warp as wp


@wp.func
def g(x: int, y: int):
    return x + y


@wp.kernel
def k(a: wp.array(dtype=int)):
    i = wp.tid()
    t = (1, 2)
    a[i] = g(**t)
