# Generic @wp.func (typing.Any): instantiated per call signature, for scalars,
# vectors, matrices and wp.array(dtype=Any) / wp.array[Any]; a definition with
# concrete types wins over a generic one that also fits (Warp's rule); generic
# functions calling generic functions; an array view passed to an Any array.
# kern-test: generic_funcs --dim 1 xi='arange(int32,4)' xf='arange(float32,4)' xv='arange(vec3,4)' xd='arange(float64,3)' oi='zeros(int32,4)' of='zeros(float32,8)' ov='zeros(vec3,3)' od='zeros(float64,2)'
# kern-check: oi
# kern-check: of
# kern-check: ov
# kern-check: od
from typing import Any

import warp as wp


@wp.func
def adder(a: Any, b: Any):
    return a + b


@wp.func
def twice(a: Any):
    return adder(a, a)


@wp.func
def mixed(a: float, b: float):
    return a * b


@wp.func
def mixed(a: Any, b: Any):
    return a + b


@wp.func
def mixed(a: int, b: int):
    return a - b


@wp.func
def first_two(x: wp.array(dtype=Any)):
    return x[0] + x[1]


@wp.func
def count(x: wp.array[Any]) -> int:
    return x.shape[0]


@wp.kernel
def generic_funcs(xi: wp.array(dtype=int), xf: wp.array(dtype=float),
                  xv: wp.array(dtype=wp.vec3), xd: wp.array(dtype=wp.float64),
                  oi: wp.array(dtype=int), of: wp.array(dtype=float),
                  ov: wp.array(dtype=wp.vec3), od: wp.array(dtype=wp.float64)):
    oi[0] = adder(17, 25)
    oi[1] = mixed(17, 25)
    oi[2] = first_two(xi) + count(xi)
    oi[3] = twice(xi[3])
    of[0] = adder(7.0, 10.0)
    of[1] = mixed(7.0, 10.0)
    of[2] = first_two(xf)
    of[3] = twice(xf[2])
    of[4] = first_two(xf[2:])
    of[5] = float(count(xf[1:]))
    m = adder(wp.mat22(1.0, 2.0, 3.0, 4.0), wp.mat22(1.0, 1.0, 1.0, 1.0))
    of[6] = m[1, 0]
    of[7] = float(count(xv))
    ov[0] = adder(wp.vec3(1.0, 2.0, 3.0), xv[1])
    ov[1] = mixed(xv[1], xv[2])
    ov[2] = first_two(xv)
    od[0] = first_two(xd)
    od[1] = twice(xd[2])
