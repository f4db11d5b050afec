# Generic @wp.func in other forms: a struct passed to an Any parameter, default
# values of Any parameters (their own type) and of typed ones next to Any,
# keyword arguments, several results, and generic recursion-free chains.
# kern-test: generic_func_forms --dim 1 out='zeros(float32,8)' ov='zeros(vec3,2)'
# kern-check: out
# kern-check: ov
from typing import Any

import warp as wp


@wp.struct
class Body:
    mass: float
    vel: wp.vec3


@wp.func
def momentum(b: Any):
    return b.vel * b.mass


@wp.func
def scaled(x: Any, s: float = 2.0):
    return x * s


@wp.func
def doubled(x: Any = 1.5):
    return x + x


@wp.func
def swapped(x: Any, y: Any):
    return y, x


@wp.func
def chain(x: Any):
    return doubled(scaled(x, s=0.5))


@wp.kernel
def generic_func_forms(out: wp.array(dtype=float), ov: wp.array(dtype=wp.vec3)):
    b = Body()
    b.mass = 3.0
    b.vel = wp.vec3(1.0, -2.0, 0.5)
    ov[0] = momentum(b)
    out[0] = scaled(4.0)
    out[1] = scaled(s=3.0, x=4.0)
    ov[1] = chain(wp.vec3(1.0, 2.0, 3.0))
    out[2] = doubled()
    out[3] = doubled(2.5)
    p, q = swapped(1.5, 7)
    out[4] = float(p) + q
    out[5] = float(doubled(21))
    out[6] = chain(5.0)
