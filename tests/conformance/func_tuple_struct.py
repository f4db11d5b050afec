# A @wp.func returning several results with a struct among them (first
# and not first), from inside a branch, unpacked at the call and the
# struct's fields read after it.
# kern-test: func_tuple_struct --dim 6 a='arange(float32,6)' out='zeros(float32,6)'
# kern-check: out
import warp as wp


@wp.struct
class Pair:
    w: float
    v: wp.vec2
    n: int


@wp.func
def split(x: float):
    p = Pair()
    p.w = x * x
    p.v = wp.vec2(x, x + 1.0)
    p.n = int(x)
    if x > 1.5:
        return x * 2.0, p
    return x - 1.0, p


@wp.func
def flip(x: float, y: float):
    q = Pair()
    q.w = x * y
    q.v = wp.vec2(y, x)
    return q, x - y


@wp.kernel
def func_tuple_struct(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    x = a[i] * 0.5
    k, p = split(x)
    q, d = flip(p.w, k)
    out[i] = k * p.w + p.v[1] * q.v[0] + q.w * d + float(p.n)
