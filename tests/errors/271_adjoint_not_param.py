# expect: 12:16: error: wp.adjoint[...] takes one of the first 1 parameters of 'adj_f' (those of 'f', whose adjoint it is)
import warp as wp


@wp.func
def f(x: float):
    return x * x


@wp.func_grad(f)
def adj_f(x: float, adj_ret: float):
    wp.adjoint[adj_ret] += x
