# kern-test: native_ref --dim 4 x='arange(float32,4)' r='arange(int32,4)' grid='zeros(float32,4,2)' boxes='zeros(Composite,4)' out='zeros(float32,4,9)'
# kern-check: r
# kern-check: grid
# kern-check: out
# @wp.func_native with wp.ref[T] parameters: the snippet assigns to the
# parameter's name and the caller's storage changes -- a local, an array
# element (1-d, 2-d, through a view), a struct field, vector, matrix and
# quaternion components, fields of struct array elements, and a ref
# forwarded from a @wp.func's own ref parameter.  A ref snippet may also
# return a value.
import warp as wp


@wp.struct
class Inner:
    value: wp.float32


@wp.struct
class Composite:
    inner: Inner
    v: wp.vec3
    m: wp.mat22


@wp.func_native("x = x + 5;")
def add5(x: wp.ref[wp.int32]): ...


@wp.func_native(
    "x = y * 2.0f;",
    adj_snippet="adj_y += 2.0f * adj_x; adj_x = 0.0f;",
)
def store_double(x: wp.ref[wp.float32], y: wp.float32): ...


@wp.func_native(
    """
    float old = acc;
    acc = acc + v;
    count = count + 1;
    return old;
    """
)
def accumulate(acc: wp.ref[wp.float32], count: wp.ref[wp.int32], v: wp.float32) -> wp.float32: ...


@wp.func
def forward_field(box: wp.ref[Inner], y: wp.float32):
    store_double(box.value, y)


@wp.kernel(enable_backward=False)
def native_ref(
    x: wp.array(dtype=wp.float32),
    r: wp.array(dtype=wp.int32),
    grid: wp.array2d(dtype=wp.float32),
    boxes: wp.array(dtype=Composite),
    out: wp.array2d(dtype=wp.float32),
):
    i = wp.tid()
    local = wp.int32(10) + i
    add5(local)
    add5(r[i])
    add5(r[i])
    r[i] = r[i] + local * 100

    store_double(grid[i, 0], x[i])
    row = grid[i]
    store_double(row[1], x[i] + 1.0)

    box = Inner()
    box.value = 0.0
    forward_field(box, x[i])
    out[i, 0] = box.value

    v = wp.vec3(0.0, 0.0, 0.0)
    m = wp.mat33(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    q = wp.quat(0.0, 0.0, 0.0, 1.0)
    store_double(v.y, x[i])
    store_double(m[1, 2], x[i] + 2.0)
    store_double(q.w, x[i] + 3.0)
    out[i, 1] = v.y
    out[i, 2] = m[1, 2]
    out[i, 3] = q.w

    store_double(boxes[i].inner.value, x[i] + 4.0)
    store_double(boxes[i].v.z, x[i] + 5.0)
    store_double(boxes[i].m[0, 1], x[i] + 6.0)
    out[i, 4] = boxes[i].inner.value
    out[i, 5] = boxes[i].v.z
    out[i, 6] = boxes[i].m[0, 1]

    acc = float(0.5)
    n = int(0)
    first = accumulate(acc, n, x[i])
    second = accumulate(acc, n, 10.0)
    out[i, 7] = first + second * 100.0
    out[i, 8] = acc + float(n) * 1000.0
