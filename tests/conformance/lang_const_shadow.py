# Module-level constants next to kernel and function locals and parameters of the same
# name: the local shadows the constant inside its function only, and a constant used
# in one function is unaffected by a parameter of that name in another.
# kern-test: lang_const_shadow --dim 4 x='rand(float,4,seed=911)' out='zeros(float,4,4)'
# kern-check: out
import warp as wp

SCALE = 3.0
COUNT = 4


@wp.func
def uses_const(x: float) -> float:
    return x * SCALE + float(COUNT)


@wp.func
def shadows_param(x: float, SCALE: float) -> float:
    return x * SCALE


@wp.kernel
def lang_const_shadow(x: wp.array(dtype=float), out: wp.array2d(dtype=float)):
    i = wp.tid()
    out[i, 0] = uses_const(x[i])
    out[i, 1] = shadows_param(x[i], 0.5)
    COUNT = i * 10
    out[i, 2] = float(COUNT) + SCALE
    out[i, 3] = uses_const(float(COUNT))
