# A struct among a @wp.func's several results (first and not first),
# returned from inside a branch, its fields (a float, a vec2) read after
# `s, k = f(...)`: their adjoints flow back through the return (Note
# [several results] in src/ir/adjoint.c).
# kern-test: multi_struct --adjoint --dim 6 a='arange(float32,6)' out='zeros(float32,6)' adj_a='zeros(float32,6)' adj_out='ones(float32,6)'
# kern-check: adj_a
import warp as wp


@wp.struct
class Pair:
    w: float
    v: wp.vec2


@wp.func
def split(x: float):
    p = Pair()
    p.w = x * x
    p.v = wp.vec2(x, wp.sin(x))
    if x > 1.5:
        p.w = p.w * 3.0
        return x * 2.0, p
    return wp.exp(x * 0.5), p


@wp.func
def flip(x: float, y: float):
    q = Pair()
    q.w = x * y
    q.v = wp.vec2(y, x)
    return q, x - y


@wp.kernel
def multi_struct(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    x = a[i] * 0.5 + 0.2
    k, p = split(x)
    q, d = flip(p.w, k)
    out[i] = k * p.w + p.v[1] * q.v[0] + q.w * d + wp.length(p.v)
