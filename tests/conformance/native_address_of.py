# kern-test: native_address_of --dim 4 x='arange(float32,4)' outers='zeros(Outer,4)' out='zeros(float32,4,8)' ids='zeros(int32,4,2)'
# kern-skip: opencl (wp.address_of is refused when loaded there: a private or global address does not survive a uint64; tests/native/native_test.sh)
# kern-check: x
# kern-check: outers
# kern-check: out
# kern-check: ids
# wp.address_of(lvalue) passes the address of a local, an array element, a
# struct field, a vector or matrix component, or a nested field of a struct
# array element to a @wp.func_native snippet, which reads and writes through
# it; the kernel then sees the new values.
import warp as wp


@wp.struct
class Inner:
    value: wp.float32
    pad: wp.int32


@wp.struct
class Outer:
    tag: wp.int32
    inner: Inner


@wp.func_native("*(int32_t*)ptr = value;")
def store_i32(ptr: wp.uint64, value: wp.int32): ...


@wp.func_native("*(float*)ptr = *(float*)ptr + step;")
def bump(ptr: wp.uint64, step: wp.float32): ...


@wp.func_native(
    """
    float *p = (float *)ptr;
    float t = p[0];
    p[0] = p[n - 1];
    p[n - 1] = t;
    """
)
def swap_ends(ptr: wp.uint64, n: wp.int32): ...


@wp.func
def bump_local(base: float) -> float:
    # the address of a @wp.func's own local
    t = base
    bump(wp.address_of(t), 0.125)
    return t


@wp.kernel(enable_backward=False)
def native_address_of(
    x: wp.array(dtype=wp.float32),
    outers: wp.array(dtype=Outer),
    out: wp.array2d(dtype=wp.float32),
    ids: wp.array2d(dtype=wp.int32),
):
    i = wp.tid()
    val = wp.int32(0)
    store_i32(wp.address_of(val), 42 + i)
    ids[i, 0] = val

    bump(wp.address_of(x[i]), 1.0)

    box = Inner()
    box.value = 4.0
    bump(wp.address_of(box.value), x[i])
    out[i, 0] = box.value

    v = wp.vec3(1.0, 2.0, 3.0)
    bump(wp.address_of(v.y), 0.5)
    bump(wp.address_of(v[2]), 10.0)
    out[i, 1] = v.y
    out[i, 2] = v.z

    m = wp.mat22(1.0, 2.0, 3.0, 4.0)
    bump(wp.address_of(m[1, 0]), x[i])
    out[i, 3] = m[1, 0]

    outers[i].inner.value = 5.0
    bump(wp.address_of(outers[i].inner.value), 1.0)
    store_i32(wp.address_of(outers[i].tag), 7 * i)
    out[i, 4] = outers[i].inner.value

    w = wp.vec4(1.0, 2.0, 3.0, 4.0)
    swap_ends(wp.address_of(w), 4)
    out[i, 5] = w[0]
    out[i, 6] = w[3]
    out[i, 7] = bump_local(x[i])
    ids[i, 1] = outers[i].tag
