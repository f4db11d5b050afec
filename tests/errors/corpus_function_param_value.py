# expect: 12:24: error: argument 'g' of apply_unary() is a wp.Function: pass a @wp.func or a Warp builtin by name
import warp as wp


@wp.func
def apply_unary(g: wp.Function, x: float):
    return g(x)


@wp.kernel
def k(a: wp.array(dtype=float)):
    a[0] = apply_unary(a[1], 2.0)
