# Nested struct fields written through array elements: arr[i].inner.v[1] = x,
# arr[i].inner.k += 1, arr[i].inner = local, and a nested field copied out of an element
# and changed (the element unchanged).
# kern-test: lang_struct_nested_array_elems --dim 4 arr='rand(Outer,4,seed=1231)' x='rand(float,4,seed=1232)' out='zeros(float,4,3)'
# kern-check: arr
# kern-check: out
import warp as wp


@wp.struct
class Inner:
    v: wp.vec3
    k: int


@wp.struct
class Outer:
    w: float
    inner: Inner
    tail: Inner


@wp.kernel
def lang_struct_nested_array_elems(arr: wp.array(dtype=Outer), x: wp.array(dtype=float), out: wp.array2d(dtype=float)):
    i = wp.tid()
    c = arr[i].inner
    c.k = 1000
    out[i, 0] = float(arr[i].inner.k)
    arr[i].inner.v[1] = x[i]
    arr[i].inner.k += 1
    t = Inner()
    t.v = wp.vec3(x[i], 2.0 * x[i], 3.0)
    t.k = -i
    arr[i].tail = t
    out[i, 1] = arr[i].inner.v[1] + arr[i].tail.v[1]
    out[i, 2] = float(c.k + arr[i].tail.k)
