# Autodiff through reads of an array of structs: a field of an element
# (a[i].x), a component of a vector field of a nested struct
# (a[i].inner.v[1]), a matrix field's entry, and a whole element copied
# into a struct local (s = a[i]) then read field by field, an element
# passed to a @wp.func, and reads in a loop Warp does not unroll.  Each read
# adds its gradient into the same field of adj_a[i], as Warp's adjoint
# does (the other fields get nothing).
# kern-test: aos_read --adjoint --dim 4 a='arange(P,4)' out='zeros(float32,4)' adj_a='zeros(P,4)' adj_out='ones(float32,4)'
# why: products and a sine, float32
# kern-check: adj_a rtol=1e-5 atol=1e-5
import warp as wp


@wp.struct
class In:
    x: float
    v: wp.vec3
    m: wp.mat22


@wp.struct
class P:
    a: float
    n: int
    inner: In


@wp.func
def weigh(p: P, k: float):
    return k * p.a * p.inner.v[0]


@wp.kernel
def aos_read(a: wp.array(dtype=P), out: wp.array(dtype=float)):
    i = wp.tid()
    s = a[i]
    y = a[i].a * a[i].inner.v[1] + wp.sin(0.1 * s.inner.x)
    y = y + s.inner.m[0, 1] * s.a + float(s.n) * a[i].inner.m[1, 0]
    y = y + weigh(a[(i + 1) % 4], 0.5)
    z = float(0.0)
    for j in range(i):
        z = z + 0.25 * a[j].inner.m[1, 1]
    out[i] = y * s.inner.v[2] + z
