# expect: 13:12: error: this call returns nothing and cannot be used as a value
import warp as wp


@wp.func
def g(x: float):
    pass


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = g(a[i])
