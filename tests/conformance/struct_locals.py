# @wp.struct with scalar, vector, matrix and nested-struct fields, used as kernel locals
# (S() is all zero), passed to and returned from @wp.func by value, copied by
# assignment (the copy is independent), fields read and written, nested fields written.
# kern-test: struct_locals --dim 4 x='arange(float32,4)' out='zeros(float32,4,8)' ov='zeros(vec3,4)' om='zeros(mat22,4)'
# kern-check: out
# kern-check: ov
# kern-check: om
import warp as wp


@wp.struct
class Inner:
    v: wp.vec3
    k: int


@wp.struct
class Body:
    """A docstring is allowed."""
    mass: float
    inertia: wp.mat22
    inner: Inner
    flag: bool
    big: wp.float64


@wp.func
def make(x: float) -> Body:
    b = Body()
    b.mass = x
    b.inner.k = 3
    b.inner.v = wp.vec3(x, x * 2.0, x * 3.0)
    b.inertia = wp.mat22(1.0, x, 0.0, 1.0)
    b.flag = x > 1.5
    return b


@wp.func
def total(b: Body) -> float:
    return b.mass + b.inner.v[1] + float(b.inner.k) + b.inertia[0, 1]


@wp.func
def heavier(b: Body, dm: float) -> Body:
    b.mass = b.mass + dm
    return b


@wp.kernel
def struct_locals(x: wp.array(dtype=float), out: wp.array2d(dtype=float), ov: wp.array(dtype=wp.vec3),
                  om: wp.array(dtype=wp.mat22)):
    i = wp.tid()
    b = make(x[i])
    c = b
    c.mass = 100.0
    z = Body()
    h = heavier(b, 0.5)
    inn = b.inner
    inn.k = 7
    out[i, 0] = total(b)
    out[i, 1] = c.mass + b.mass
    out[i, 2] = z.mass + z.inner.v[2] + float(z.inner.k)
    out[i, 3] = h.mass - b.mass
    out[i, 4] = float(inn.k + b.inner.k)
    out[i, 5] = 1.0 if b.flag else 0.0
    out[i, 6] = float(z.big + wp.float64(0.25))
    out[i, 7] = wp.length(b.inner.v)
    ov[i] = b.inner.v + c.inner.v
    om[i] = b.inertia * h.inertia
