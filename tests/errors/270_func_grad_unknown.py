# expect: 5:15: error: @wp.func_grad: no @wp.func 'k' above
import warp as wp


@wp.func_grad(k)
def g(x: float, adj_ret: float):
    pass
