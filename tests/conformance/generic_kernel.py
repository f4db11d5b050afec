# A generic kernel (typing.Any parameters) instantiated ahead of time by
# wp.overload() with a list, with a dict of parameter names and by an
# @wp.overload stub; kern run picks the instantiation the arguments fit (here
# the float32 one), as wp.launch picks one from its inputs.
# kern-test: generic_kernel --dim 4 a='arange(float32,4)' value=2.5 out='zeros(float32,4)'
# kern-check: out
from typing import Any

import warp as wp


@wp.func
def scale(x: Any, s: Any):
    return x * s


@wp.kernel
def generic_kernel(a: wp.array(dtype=Any), value: Any, out: wp.array(dtype=Any)):
    i = wp.tid()
    out[i] = scale(a[i], value) + a[i]


wp.overload(generic_kernel, [wp.array(dtype=int), int, wp.array(dtype=int)])
fill_float = wp.overload(generic_kernel, {"a": wp.array(dtype=float), "value": float,
                                          "out": wp.array(dtype=float)})


@wp.overload
def generic_kernel(a: wp.array(dtype=wp.float64), value: wp.float64,
                   out: wp.array(dtype=wp.float64)):
    ...
