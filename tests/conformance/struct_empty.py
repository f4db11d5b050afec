# An empty @wp.struct (no fields, `pass`): a parameter, a field of another
# struct (one byte, so the next field of that struct lands at its
# alignment: offset 4 for a float32, as in Warp's layout), a local made by
# its constructor, and a @wp.func taking one.
# kern-test: struct_empty --dim 4 e='{}' h='{x=2.5,n=3}' out='zeros(float32,4)'
# kern-check: out
import warp as wp


@wp.struct
class Empty:
    pass


@wp.struct
class Holder:
    e: Empty
    x: float
    n: int


@wp.func
def ignore(e: Empty, v: float):
    return v * 2.0


@wp.kernel
def struct_empty(e: Empty, h: Holder, out: wp.array(dtype=float)):
    i = wp.tid()
    local = Empty()
    h2 = Holder()
    h2.e = local
    h2.x = h.x
    out[i] = ignore(e, h.x) + ignore(h2.e, float(i)) + float(h.n) + h2.x
