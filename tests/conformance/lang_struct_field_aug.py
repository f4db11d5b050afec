# Augmented assignment on struct fields: s.x += v, s.v[1] *= f, s.m[0, 1] -= v,
# s.k //= n on a local, on a nested field, and on fields of struct array elements
# (load-op-store, one thread per element); *= on an element field needs
# enable_backward=False in Warp.
# kern-test: lang_struct_field_aug --dim 4 arr='rand(Cell,4,seed=351)' x='rand(float,4,seed=352)' out='zeros(float,4,6)'
# kern-check: arr
# kern-check: out
import warp as wp


@wp.struct
class Inner:
    k: int
    w: float


@wp.struct
class Cell:
    x: float
    v: wp.vec3
    m: wp.mat22
    inner: Inner


@wp.kernel(enable_backward=False)
def lang_struct_field_aug(arr: wp.array(dtype=Cell), x: wp.array(dtype=float), out: wp.array2d(dtype=float)):
    i = wp.tid()
    s = Cell()
    s.x += x[i]
    s.x *= 3.0
    s.v = wp.vec3(1.0, 2.0, 3.0)
    s.v[1] *= x[i]
    s.m[0, 1] -= x[i]
    s.inner.k = 17
    s.inner.k //= 3
    s.inner.w += 0.5
    out[i, 0] = s.x
    out[i, 1] = s.v[1]
    out[i, 2] = s.m[0, 1]
    out[i, 3] = float(s.inner.k)
    out[i, 4] = s.inner.w
    arr[i].x += x[i]
    arr[i].v[2] -= 1.0
    arr[i].inner.w *= 2.0
    arr[i].inner.k += i
    out[i, 5] = arr[i].x
