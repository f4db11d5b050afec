# Autodiff through a @wp.struct parameter's array fields (Note [struct
# leaves] in src/ir/adjoint.c): the adjoint launch takes an adjoint struct
# whose array fields are the gradients (wp.Tape puts the arrays' .grad
# there).  Reads of s.xs[i] add into adj_s.xs[i]; a store s.ys[i] = v
# takes adj_s.ys[i] into v's gradient and clears it; wp.atomic_add into
# an array field passes its gradient on; an array field read through a
# nested struct, a struct local holding the parameter's array, a
# @wp.func taking the struct, and a float field (a value: no gradient).
# kern-test: struct_arrays --adjoint --dim 5 s='{xs=arange(float32,5),ys=zeros(float32,5),k=1.5,sub={ws=arange(vec2,5),c=0.5}}' a='arange(float32,5)' tot='zeros(float32,1)' adj_s='{xs=zeros(float32,5),ys=full(float32,5,2),k=0,sub={ws=zeros(vec2,5),c=0}}' adj_a='zeros(float32,5)' adj_tot='ones(float32,1)'
# kern-skip: opencl (OpenCL 1.2 buffers have no device address a struct could hold)
# why: products and a sine, float32
# kern-check: adj_s.xs rtol=1e-5 atol=1e-5
# kern-check: adj_s.ys rtol=1e-5 atol=1e-5
# kern-check: adj_s.sub.ws rtol=1e-5 atol=1e-5
# kern-check: adj_a rtol=1e-5 atol=1e-5
import warp as wp


@wp.struct
class Sub:
    ws: wp.array(dtype=wp.vec2)
    c: float


@wp.struct
class State:
    xs: wp.array(dtype=float)
    ys: wp.array(dtype=float)
    k: float
    sub: Sub


@wp.func
def weight(s: State, i: int):
    return s.sub.ws[i][0] * s.xs[i] + s.sub.c


@wp.kernel
def struct_arrays(s: State, a: wp.array(dtype=float), tot: wp.array(dtype=float)):
    i = wp.tid()
    x = s.xs[i]
    w = s.sub.ws[i]
    y = x * x * s.k + wp.sin(a[i]) * w[1]
    s.ys[i] = y * a[i]
    t = State()
    t.xs = s.xs
    t.k = s.k * 2.0
    wp.atomic_add(tot, 0, t.xs[i] * t.k + weight(s, i) * a[i])
