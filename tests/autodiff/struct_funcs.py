# Autodiff through @wp.func calls that return a @wp.struct (Note [struct
# leaves] in src/ir/adjoint.c): a function building a struct and
# returning it from inside a branch and at its end, a function taking a
# struct and returning a changed copy, a call's result passed straight to
# another call, and a field read off a call's result.
# kern-test: struct_funcs --adjoint --dim 4 a='arange(float32,4)' v='arange(vec3,4)' out='zeros(float32,4)' adj_a='zeros(float32,4)' adj_v='zeros(vec3,4)' adj_out='full(float32,4,0.5)'
# why: products and a sine, float32
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
    inner: Inner

@wp.func
def make(x: float, v: wp.vec3):
    b = Body()
    b.m = x * x
    b.p = v * x
    b.inner = Inner(wp.sin(x), wp.vec2(x, 2.0))
    if x > 1.5:
        b.m = b.m * 3.0
        return b
    return b

@wp.func
def scaled(b: Body, s: float):
    c = b
    c.m = c.m * s
    c.inner.k = c.inner.k + s * b.m
    return c

@wp.kernel
def struct_funcs(a: wp.array(dtype=float), v: wp.array(dtype=wp.vec3), out: wp.array(dtype=float)):
    i = wp.tid()
    b = make(a[i], v[i])
    c = scaled(make(a[i] * 0.5, v[i]), a[i])
    out[i] = b.m + c.m + wp.dot(b.p, c.p) + scaled(b, 2.0).inner.k * c.inner.w[0]
