# @wp.func_grad of a function with several results: as in Warp 1.19, the
# custom adjoint takes the function's parameters and then one adj_ret
# per result (of its type: a float and a vec2 here), and adds into
# wp.adjoint[...]; the results are used apart, one of them twice, and the
# function is returned from inside a branch.
# kern-test: funcgrad_multi --adjoint --dim 6 a='arange(float32,6)' out='zeros(float32,6)' adj_a='zeros(float32,6)' adj_out='ones(float32,6)'
# kern-check: adj_a
import warp as wp


@wp.func
def polar(r: float, t: float):
    if r > 2.0:
        return r * r, wp.vec2(r * wp.cos(t), r * wp.sin(t))
    return r, wp.vec2(r * t, t)


@wp.func_grad(polar)
def adj_polar(r: float, t: float, adj_s: float, adj_p: wp.vec2):
    # a made-up rule (not the derivative), so the test sees it is used
    wp.adjoint[r] += adj_s * 3.0 + adj_p[0] * wp.cos(t)
    wp.adjoint[t] += adj_p[1] * r - adj_s


@wp.kernel
def funcgrad_multi(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    x = a[i] * 0.5 + 0.25
    s, p = polar(x, x * 0.3)
    out[i] = s * p[0] + p[1] * 2.0 + s
