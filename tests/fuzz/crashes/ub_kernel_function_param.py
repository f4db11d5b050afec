# expect: 12:11: error: argument 1 of f() ('a') must be indexedarray(a=float32), got array(dtype=float32)
import warp as wp


@wp.func
def f(a: wp.indexedarray(dtype=float)):
   return a[0]


@wp.kernel
def apply_unary(g: wp.Function, x: float):
    return g(x)
