# @wp.func_replay of a function with several results (a float and a
# vec2), as Warp 1.19 does it: its adjoint's replay of such a call is the
# function's own forward code (Warp takes a replay function only for a
# function with one result or none), so the replay function is not called
# and the gradient is the derivative of the function's body.
# kern-test: func_replay_multi --adjoint --dim 6 a='arange(float32,6)' out='zeros(float32,6)' adj_a='zeros(float32,6)' adj_out='ones(float32,6)'
# kern-check: adj_a
import warp as wp


@wp.func
def polar(r: float, t: float):
    if r > 1.0:
        return r * r, wp.vec2(r * wp.cos(t), r * wp.sin(t))
    return r, wp.vec2(r * t, t)


@wp.func_replay(polar)
def replay_polar(r: float, t: float):
    # different values (not the function's): were they read, the gradient
    # would differ
    return r + 1.0, wp.vec2(t * 2.0, r - t)


@wp.kernel
def func_replay_multi(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    x = a[i] * 0.5 + 0.25
    s, p = polar(x, x * 0.3)
    out[i] = s * p[0] + p[1] * p[1] + s * s
