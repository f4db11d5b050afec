# Second names for a @wp.func and a @wp.struct bound at the top level
# (`f1 = f`, `S1 = S`, chains of them), as Warp's tests write them
# (test_codegen_instancing.py): calls, constructors, annotations of kernel
# and function parameters all resolve to the original.
# kern-test: corpus_aliases --dim 4 x='arange(float32,4)' s='{x=3,k=2}' out='zeros(float32,4,3)'
# kern-check: out
import warp as wp


@wp.struct
class S:
    x: float
    k: int


S1 = S
S2 = S1


@wp.func
def twice(a: float) -> float:
    return a * 2.0


twice1 = twice
twice2 = twice1


@wp.func
def scaled(s: S1, v: float) -> float:
    return s.x * v + float(s.k)


@wp.kernel
def corpus_aliases(x: wp.array(dtype=float), s: S2, out: wp.array2d(dtype=float)):
    i = wp.tid()
    t = S1()
    t.x = twice1(x[i])
    t.k = 5
    out[i, 0] = t.x + twice2(s.x)
    out[i, 1] = scaled(t, x[i])
    u = S2(x[i] + 1.0, i)
    out[i, 2] = scaled(u, 3.0)
