# wp.static(len(v)) of vector and matrix variables (a compile-time constant, also as a loop bound), in a kernel and in generic functions with partly generic parameters (one instance per size).
# kern-test: ty_vecn_static_len --dim 1 v=1,2,3,4,5,6,7 m=1,2,3,4,5,6 out='zeros(float32,6)'
# kern-check: out
from typing import Any

import warp as wp

vec7 = wp.types.vector(7, float)
mat23 = wp.types.matrix((2, 3), float)


@wp.func
def weighted(v: wp.types.vector(Any, float)) -> float:
    s = float(0.0)
    for i in range(wp.static(len(v))):
        s += v[i] * float(i)
    return s


@wp.func
def last_col(m: wp.types.matrix((Any, 3), float)) -> float:
    r = float(0.0)
    for j in range(wp.static(len(m))):
        r += m[j, 2]
    return r


@wp.kernel
def ty_vecn_static_len(v: vec7, m: mat23, out: wp.array(dtype=float)):
    n = wp.static(len(v))
    out[0] = weighted(v)
    out[1] = weighted(wp.vec3(1.0, 2.0, 3.0))
    out[2] = float(n * 10 + wp.static(len(m)))
    out[3] = last_col(m)
    out[4] = last_col(wp.types.matrix(shape=(5, 3), dtype=float)) + last_col(wp.mat33(2.0))
    out[5] = float(len(v))
