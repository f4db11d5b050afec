# @wp.func default parameter values of several types (int, float, bool, vec2, a
# module-level constant, a wp.float64), called with none, some and all of them given,
# positionally.
# kern-test: lang_func_defaults --dim 5 x='rand(float,5,seed=201)' out='zeros(float,5,6)'
# kern-check: out
import warp as wp

LIMIT = 0.75


@wp.func
def shape(x: float, power: int = 2, gain: float = 1.5, flip: bool = False,
          bias: wp.vec2 = wp.vec2(0.25, -0.5), cap: float = LIMIT) -> float:
    y = x
    for _ in range(power - 1):
        y = y * x
    y = y * gain + bias[0] - bias[1]
    if flip:
        y = -y
    return wp.min(y, cap)


@wp.func
def wide(x: float, s: wp.float64 = wp.float64(0.5)) -> float:
    return float(wp.float64(x) * s)


@wp.kernel
def lang_func_defaults(x: wp.array(dtype=float), out: wp.array2d(dtype=float)):
    i = wp.tid()
    v = x[i]
    out[i, 0] = shape(v)
    out[i, 1] = shape(v, 3)
    out[i, 2] = shape(v, 1, 0.5)
    out[i, 3] = shape(v, 2, 2.0, True)
    out[i, 4] = shape(v, 2, 1.0, False, wp.vec2(v, v), 10.0)
    out[i, 5] = wide(v) + wide(v, wp.float64(3.0))
