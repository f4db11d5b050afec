# expect: 12:11: error: argument 1 of f() ('a') must be indexedarray(dtype=float32), got array(dtype=float32)
import warp as wp


@wp.func
def f(a: wp.indexedarray(dtype=float)):
    return a[0]


@wp.kernel
def k(a: wp.array(dtype=float)):
    x = f(a)
