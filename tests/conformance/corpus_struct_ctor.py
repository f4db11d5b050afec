# Warp's struct constructor in a kernel with arguments: fields in declaration
# order (S(a, b)) or by keyword (any order), every field given with exactly its
# type (Warp rejects a partial list and an int literal for a float field),
# nested constructors, a constructed struct returned from a @wp.func (found in Warp's tests: test_struct.py,
# test_operators.py, test_tuple.py).
# kern-test: corpus_struct_ctor --dim 4 x='arange(float32,4)' out='zeros(float32,4,6)' ov='zeros(vec3,4)'
# kern-check: out
# kern-check: ov
import warp as wp


@wp.struct
class Inner:
    z: wp.vec3
    w: float


@wp.struct
class Outer:
    inner: Inner
    k: int
    s: wp.float64


@wp.func
def make_inner(x: float) -> Inner:
    return Inner(wp.vec3(x, 2.0 * x, 3.0 * x), x + 0.5)


@wp.kernel
def corpus_struct_ctor(x: wp.array(dtype=float), out: wp.array2d(dtype=float), ov: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    o = Outer(make_inner(x[i]), 7, wp.float64(1.25))
    p = Outer(s=wp.float64(2.0), k=3, inner=Inner(wp.vec3(0.0), 0.5))
    q = Inner(w=2.0, z=wp.vec3(x[i]))
    out[i, 0] = o.inner.z[1] + o.inner.w
    out[i, 1] = float(o.k) + float(o.s)
    out[i, 2] = float(p.k) + p.inner.w + float(p.s)
    out[i, 3] = q.w + q.z[2]
    r = o
    r.k = 10
    out[i, 4] = float(o.k)
    out[i, 5] = float(r.k)
    ov[i] = Inner(z=o.inner.z * 2.0, w=1.0).z + q.z
