# @wp.func_grad of an overloaded function: as in Warp 1.19, each custom
# adjoint goes to the overload whose parameter types (and result types,
# for its adj_ret) it takes; one overload (float, float) has its own, the
# vec2 one another, and the (float,) one none (differentiated through its
# body).
# kern-test: funcgrad_overload --adjoint --dim 6 a='arange(float32,6)' out='zeros(float32,6)' adj_a='zeros(float32,6)' adj_out='ones(float32,6)'
# kern-check: adj_a
import warp as wp


@wp.func
def damp(x: float, k: float):
    return x * k


@wp.func
def damp(v: wp.vec2, k: float):
    return v * k


@wp.func
def damp(x: float):
    return x * x


@wp.func_grad(damp)
def adj_damp_vec(v: wp.vec2, k: float, adj_ret: wp.vec2):
    wp.adjoint[v] += adj_ret * 0.5
    wp.adjoint[k] += wp.dot(v, adj_ret) * 2.0


@wp.func_grad(damp)
def adj_damp(x: float, k: float, adj_ret: float):
    wp.adjoint[x] += adj_ret * 3.0
    wp.adjoint[k] += adj_ret


@wp.kernel
def funcgrad_overload(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    x = a[i] * 0.5 + 0.25
    v = damp(wp.vec2(x, x * x), x)
    out[i] = damp(x, x * 2.0) + v[0] * v[1] + damp(x)
