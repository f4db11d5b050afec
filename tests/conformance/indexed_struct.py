# wp.indexedarray as a @wp.struct field and as a @wp.func parameter: the
# struct holds Warp's indexedarray_t (docs/ABI.md); enable_backward=False
# as Warp 1.19 cannot build the adjoint of pick().
# kern-skip: opencl (OpenCL 1.2 buffers have no device address a struct could hold)
# kern-test: indexed_struct --dim 3 s='{ia=indexed(arange(float32,6);[5,3,1]),scale=2.5}' out='zeros(float32,3)'
# kern-check: out
# kern-check: s.ia
import warp as wp


@wp.struct
class Holder:
    ia: wp.indexedarray(dtype=float)
    scale: float


@wp.func
def pick(a: wp.indexedarray(dtype=float), i: int):
    return a[i]


@wp.kernel(enable_backward=False)
def indexed_struct(s: Holder, out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = pick(s.ia, i) * s.scale + float(s.ia.shape[0])
    wp.atomic_add(s.ia, i, 1.0)
