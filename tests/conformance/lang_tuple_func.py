# Tuples passed to and returned from @wp.func: tuple[...] and
# typing.Tuple[...] parameters, a typing.Any parameter instantiated per
# tuple length, a tuple[int, ...] parameter, a tuple indexed by the
# variable of a constant range() loop,
# a tuple returned whole, and tuples of vectors.
# kern-test: lang_tuple_func --dim 5 x='arange(float32,5)' out='zeros(float32,5,6)' iout='zeros(int32,5,4)'
# kern-check: out
# kern-check: iout
import typing
from typing import Any

import warp as wp


@wp.func
def weighted(values: tuple[wp.vec3, float]) -> float:
    return wp.length(values[0]) * values[1] + float(len(values))


@wp.func
def total(values: typing.Tuple[int, int, int]):
    s = int(0)
    for k in range(wp.static(len(values))):
        s += values[k]
    for k in range(len(values)):
        s += values[k] * 10
    return s


@wp.func
def total_any(values: Any):
    s = int(0)
    for k in range(len(values)):
        s += values[k] * (k + 1)
    return s


@wp.func
def total_var(values: tuple[int, ...]):
    s = int(0)
    for k in range(wp.static(len(values))):
        s += values[k] * (k + 2)
    return s


@wp.func
def swap(t: tuple[float, wp.vec2]) -> tuple[wp.vec2, float]:
    return (t[1] * 2.0, t[0])


@wp.func
def passthrough(t: tuple[int, float]):
    return t


@wp.func
def reversed3(a: wp.vec3, b: wp.vec3, c: wp.vec3) -> tuple[wp.vec3, wp.vec3, wp.vec3]:
    return (c, b, a)


@wp.kernel
def lang_tuple_func(x: wp.array(dtype=float), out: wp.array2d(dtype=float), iout: wp.array2d(dtype=int)):
    i = wp.tid()
    t = (wp.vec3(1.0, 2.0, x[i]), x[i] + 1.0)
    out[i, 0] = weighted(t)
    out[i, 1] = weighted((t[0], 0.5)) + weighted((wp.vec3(x[i]), 2.0))
    iout[i, 0] = total((i, 2, 3))
    iout[i, 1] = total_any((i,)) + total_any((i, 4)) * 100
    iout[i, 2] = total_any((1, 2, i, 4)) + total_var((i,)) * 1000 + total_var((i, 1, 2)) * 100000
    s = swap((x[i], wp.vec2(1.0, x[i])))
    v, f = s
    out[i, 2] = v[1] + f * 10.0
    p = passthrough((i * 3, x[i] * 0.5))
    a, b = p
    iout[i, 3] = a
    out[i, 3] = b + p[1]
    r = reversed3(wp.vec3(1.0), wp.vec3(2.0), wp.vec3(x[i]))
    r0 = r[0]
    r2 = r[2]
    out[i, 4] = r0[0] + r2[1] * 10.0
    vs = (wp.vec2(1.0, x[i]), wp.vec2(x[i], 3.0), wp.vec2(5.0, 6.0))
    acc = wp.vec2(0.0)
    for k in range(3):
        acc += vs[k] * float(k + 1)
    out[i, 5] = acc[0] + acc[1] * 100.0
