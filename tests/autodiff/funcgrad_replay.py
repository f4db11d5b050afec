# @wp.func_replay of an overloaded function: as Warp 1.19 matches it, the
# replay goes to the overload of its parameter types (the float one
# here); the vec2 overload is replayed as itself.
# kern-test: funcgrad_replay --adjoint --dim 5 a='arange(float32,5)' out='zeros(float32,5)' adj_a='zeros(float32,5)' adj_out='ones(float32,5)'
# kern-check: adj_a
import warp as wp


@wp.func
def wave(x: float, s: float):
    return wp.sin(x) * s


@wp.func
def wave(v: wp.vec2, s: float):
    return wp.sin(v[0]) * v[1] * s


@wp.func_replay(wave)
def replay_wave(x: float, s: float):
    if x > 1.0:
        return x * 0.5 + s
    return s


@wp.kernel
def funcgrad_replay(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    x = a[i] * 0.5
    y = wave(x, x + 1.0)
    z = wave(wp.vec2(x, x * x), 2.0)
    out[i] = y * y + x * y + z * y
