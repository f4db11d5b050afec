# @wp.func parameters annotated wp.ref[T] (Warp's test_ref.py): the function
# changes the caller's variable, array element, struct field or vector
# component; refs forwarded to another ref function; a ref function that also
# returns a value, called inside an expression; keyword arguments.
# kern-test: corpus_ref_params --dim 4 x='arange(float32,4)' a='zeros(int32,4)' out='zeros(float32,4,6)'
# kern-check: a
# kern-check: out
import warp as wp


@wp.struct
class Counter:
    n: int
    v: wp.vec3


@wp.func
def increment(x: wp.ref[wp.int32]):
    x += 1


@wp.func
def scale_ref(v: wp.ref[float], s: float):
    if v > 2.0:
        v = v * s
        return
    v = v + s


@wp.func
def forward(x: wp.ref[wp.int32]):
    increment(x)
    increment(x)


@wp.func
def swap_sum(p: wp.ref[float], q: wp.ref[float]) -> float:
    t = p
    p = q
    q = t
    return p + q


@wp.kernel(enable_backward=False)
def corpus_ref_params(x: wp.array(dtype=float), a: wp.array(dtype=wp.int32), out: wp.array2d(dtype=float)):
    i = wp.tid()
    k = wp.int32(i)
    increment(k)
    forward(x=k)
    a[i] = k
    increment(a[i])
    c = Counter()
    increment(c.n)
    c.v = wp.vec3(x[i], 1.0, 2.0)
    scale_ref(c.v[0], 3.0)
    out[i, 0] = float(c.n)
    out[i, 1] = c.v[0]
    y = x[i] * 0.5
    z = wp.float32(10.0)
    s = swap_sum(y, z) * 2.0
    out[i, 2] = y
    out[i, 3] = z
    out[i, 4] = s
    w = x[i]
    scale_ref(w, s=2.0)
    out[i, 5] = w
