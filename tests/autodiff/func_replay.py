# @wp.func_replay: the adjoint's replay calls the replay function instead
# of the function, so the reverse sweep reads the replay's result (here a
# different value), while the function's own gradient is still its body's
# derivative, as in Warp 1.19.
# kern-test: func_replay --adjoint --dim 5 a='arange(float32,5)' out='zeros(float32,5)' adj_a='zeros(float32,5)' adj_out='ones(float32,5)'
# kern-check: adj_a
import warp as wp


@wp.func
def wave(x: float, s: float):
    return wp.sin(x) * s


@wp.func_replay(wave)
def replay_wave(x: float, s: float):
    if x > 1.0:
        return x * 0.5 + s
    return s


@wp.kernel
def func_replay(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    x = a[i] * 0.5
    y = wave(x, x + 1.0)
    out[i] = y * y + x * y
