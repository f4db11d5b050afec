# Autodiff through @wp.struct values (Note [struct leaves] in
# src/ir/adjoint.c): a struct local built field by field and by its
# constructor, with scalar, vector, matrix and nested-struct fields; a
# copy changed independently of its source; a nested struct assigned
# whole; a struct passed to a @wp.func and read there; a struct local
# reassigned in a dynamic loop; and a struct kernel parameter, whose
# float fields are values (Warp discards their adjoint).
# kern-test: struct_locals --adjoint --dim 4 a='arange(float32,4)' v='arange(vec3,4)' p='{scale=1.5,off=(0.5,-1,2),inner={k=0.25,w=(1,2)}}' out='zeros(float32,4)' n=3 adj_a='zeros(float32,4)' adj_v='zeros(vec3,4)' adj_p='{scale=0,off=(0,0,0),inner={k=0,w=(0,0)}}' adj_out='full(float32,4,1.5)' adj_n=0
# why: sums of products and a sine, float32
# kern-check: adj_a rtol=1e-5 atol=1e-5
# kern-check: adj_v rtol=1e-5 atol=1e-5
import warp as wp


@wp.struct
class Inner:
    k: float
    w: wp.vec2


@wp.struct
class Body:
    m: float
    p: wp.vec3
    r: wp.mat22
    inner: Inner
    tag: int


@wp.struct
class Params:
    scale: float
    off: wp.vec3
    inner: Inner


@wp.func
def energy(b: Body, s: float):
    e = b.m * s + wp.dot(b.p, b.p) * b.inner.k
    return e + b.r[0, 1] * b.inner.w[1]


@wp.kernel
def struct_locals(a: wp.array(dtype=float), v: wp.array(dtype=wp.vec3), p: Params,
                  out: wp.array(dtype=float), n: int):
    i = wp.tid()
    b = Body()
    b.m = a[i] * p.scale
    b.p = v[i] * a[i] + p.off
    b.r = wp.mat22(a[i], a[i] * a[i], 1.0, 2.0)
    b.inner.k = wp.sin(a[i])
    b.inner.w = wp.vec2(a[i], p.inner.w[1])
    b.tag = i
    c = b
    c.m = c.m * c.inner.k
    q = Inner(a[i] * a[i], wp.vec2(0.5, a[i] * p.inner.k))
    c.inner = q
    acc = energy(c, 2.0) + energy(b, a[i])
    d = b
    for _k in range(n):
        d.m = d.m + d.inner.k * a[i]
        acc = acc + d.m
    out[i] = acc + c.m + wp.dot(c.p, b.p) + c.inner.k * b.inner.k + c.inner.w[1] * b.inner.w[0] + float(b.tag)
