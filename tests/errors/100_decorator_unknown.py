# expect: 5:1: error: the Warp decorator @wp.func_grad is not supported (autodiff is outside kern's scope)
import warp as wp


@wp.func_grad(k)
def k(a: wp.array(dtype=float)):
    pass
