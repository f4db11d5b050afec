# Partly generic vector and matrix types: wp.types.vector(3, wp.Int), wp.types.matrix((Any, Any), float32), wp.types.vector(Any, float) in @wp.func parameters (one instance per argument type), Vector[dtype, Literal[N]] and Matrix[dtype, Literal[R], Literal[C]] as array element types.
# kern-test: ty_vecn_generic --dim 2 p='arange(vec5,2)' q='arange(mat2x3d,2)' out='zeros(float32,2)'
# kern-check: out
from typing import Any, Literal
import warp as wp
from warp._src.types import Vector, Matrix


@wp.func
def vsum(v: wp.types.vector(3, wp.Int)) -> wp.Int:
    return v[0] + v[1] + v[2]


@wp.func
def msum(m: wp.types.matrix((Any, Any), wp.float32)) -> float:
    s = float(0.0)
    for i in range(len(m)):
        s += m[i, 0]
    return s


@wp.func
def vlen(v: wp.types.vector(Any, float)) -> int:
    return len(v)


@wp.kernel
def ty_vecn_generic(p: wp.array(dtype=Vector[wp.float32, Literal[5]]), q: wp.array(dtype=Matrix[wp.float64, Literal[2], Literal[3]]),
      out: wp.array(dtype=float)):
    i = wp.tid()
    a = wp.vec3s(wp.int16(1), wp.int16(2), wp.int16(3))
    b = wp.vec3i(4, 5, 6)
    out[i] = float(vsum(a)) + float(vsum(b)) + wp.length(p[i]) + float(q[i][1, 2])
    m = wp.types.matrix(shape=(7, 2), dtype=float)
    m[6, 0] = 2.5
    out[i] += msum(m) + msum(wp.mat22(1.0, 0.0, 1.0, 0.0)) + float(vlen(p[i])) + float(vlen(wp.vec2()))
