# Kernels of structs_test.sh: a struct value and an array of structs from a
# .npy file of records (Warp's numpy_dtype()).
import warp as wp


@wp.struct
class Inner:
    v: wp.vec3
    k: wp.int8


@wp.struct
class Body:
    a: wp.int8
    d: wp.float64
    inner: Inner
    on: bool


@wp.kernel
def shift(b: Body, items: wp.array(dtype=Body), out: wp.array(dtype=float)):
    i = wp.tid()
    items[i].d = items[i].d + b.d
    items[i].inner.v[0] = b.inner.v[1]
    items[i].inner.k = items[i].inner.k + b.a
    out[i] = float(items[i].a) + (1.0 if items[i].on else 0.0)
