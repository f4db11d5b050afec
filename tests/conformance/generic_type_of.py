# Generic code that builds values of a type it is given: type(x)(v), a.dtype(v)
# of an array, v.dtype(s) of a vector, type(a).dtype; Warp's constrained generic
# types wp.Int, wp.Float and wp.Scalar.  Of the two instantiations, kern run
# picks the float32 one, as wp.launch does for Python floats passed to Any
# parameters, although the float64 one comes first and the numbers fit it too.
# kern-test: generic_type_of --dim 1 a=1.5 b=3.25 xi='arange(int64,3)' xu='arange(uint8,3)' xv='arange(vec3,2)' out='zeros(float32,6)'
# kern-check: xi
# kern-check: xu
# kern-check: xv
# kern-check: out
from typing import Any

import warp as wp


@wp.func
def half_of(x: wp.Float):
    return x * type(x)(0.5)


@wp.func
def twice_int(x: wp.Int) -> wp.Int:
    return x + x


@wp.func
def plus_one(x: wp.Scalar):
    return x + type(x)(1)


@wp.func
def zero_like(a: wp.array(dtype=Any)):
    return type(a[0])(0)


@wp.func
def scaled(v: Any, s: float):
    return v * v.dtype(s)


@wp.kernel
def generic_type_of(a: Any, b: Any, xi: wp.array(dtype=wp.int64), xu: wp.array(dtype=wp.uint8),
                    xv: wp.array(dtype=Any), out: wp.array(dtype=Any)):
    c = type(a)(b)
    z = out.dtype(2)
    out[0] = c + z + zero_like(out)
    out[1] = half_of(c) + type(out[0])(half_of(b))
    out[2] = plus_one(c)
    out[3] = type(a)(plus_one(xi[2]))
    xi[0] = twice_int(xi[1]) + plus_one(xi[2])
    xu[0] = twice_int(xu[2])
    xv[0] = scaled(xv[1], 0.5)
    e = type(xv[0])(type(a)(2.0))
    out[4] = e[2] + type(xv).dtype(3.0)[1]


wp.overload(generic_type_of, [wp.float64, wp.float32, wp.array(dtype=wp.int64), wp.array(dtype=wp.uint8),
                              wp.array(dtype=wp.vec3d), wp.array(dtype=wp.float64)])
wp.overload(generic_type_of, [wp.float32, wp.float32, wp.array(dtype=wp.int64), wp.array(dtype=wp.uint8),
                              wp.array(dtype=wp.vec3), wp.array(dtype=wp.float32)])
