# @wp.func parameters of type wp.Function (Warp's test_func_parameter_targets.py):
# a user function or a Warp builtin passed by name, through a module-level
# alias, as a keyword argument, as a default value, forwarded from one
# function to another, together with a generic (Any) parameter.
# kern-test: corpus_function_params --dim 4 x='arange(float32,4)' out='zeros(float32,4,8)'
# kern-check: out
from typing import Any

import warp as wp


@wp.func
def double_it(x: float):
    return x * 2.0


@wp.func
def triple_it(x: float):
    return x * 3.0


@wp.func
def add_it(x: float, y: float):
    return x + y


@wp.func
def apply_unary(g: wp.Function, x: float):
    return g(x)


@wp.func
def apply_binary(g: wp.Function, x: float, y: float):
    return g(x, y)


@wp.func
def apply_default(x: float, g: wp.Function = triple_it):
    return g(x)


@wp.func
def apply_nested(x: float):
    return apply_unary(double_it, x) + apply_unary(g=triple_it, x=x)


@wp.func
def apply_generic(g: wp.Function, x: Any):
    return g(x)


@wp.func
def apply_twice(g: wp.Function, x: float):
    return apply_unary(g, apply_unary(g, x))


TARGET = double_it
BUILTIN = wp.cos


@wp.kernel
def corpus_function_params(x: wp.array(dtype=float), out: wp.array2d(dtype=float)):
    i = wp.tid()
    out[i, 0] = apply_unary(double_it, x[i])
    out[i, 1] = apply_unary(wp.sin, x[i])
    out[i, 2] = apply_binary(add_it, x[i], 0.5)
    out[i, 3] = apply_default(x[i])
    out[i, 4] = apply_nested(x[i])
    out[i, 5] = apply_generic(triple_it, x[i])
    out[i, 6] = apply_twice(TARGET, x[i])
    out[i, 7] = apply_unary(BUILTIN, x[i])
