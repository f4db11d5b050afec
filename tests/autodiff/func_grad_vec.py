# @wp.func_grad on a function of a vector and a scalar, returning a
# scalar, called twice (in a dynamic loop and after it): the custom
# adjoint's vector arithmetic, an early return in it, and
# wp.adjoint[v] of a vector, as Warp 1.19 computes them.
# kern-test: func_grad_vec --adjoint --dim 4 a='arange(vec3,4)' n=3 out='zeros(float32,4)' adj_a='zeros(vec3,4)' adj_n=0 adj_out='ones(float32,4)'
# kern-check: adj_a
import warp as wp


@wp.func
def soft_norm(v: wp.vec3, eps: float):
    return wp.sqrt(wp.dot(v, v) + eps)


@wp.func_grad(soft_norm)
def adj_soft_norm(v: wp.vec3, eps: float, adj_ret: float):
    l = wp.sqrt(wp.dot(v, v) + eps)
    if l < 1.0:
        wp.adjoint[v] += v * adj_ret
        return
    wp.adjoint[v] += v * (adj_ret / l)
    wp.adjoint[eps] += adj_ret * 0.5 / l


@wp.kernel
def func_grad_vec(a: wp.array(dtype=wp.vec3), n: int, out: wp.array(dtype=float)):
    i = wp.tid()
    v = a[i] * 0.1
    s = float(0.0)
    for k in range(n):
        s = s + soft_norm(v * float(k), 0.5)
    out[i] = s + soft_norm(v, v[0] * v[0])
