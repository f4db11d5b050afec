# Out-of-bounds accesses that debug mode must report, not perform.
import warp as wp


@wp.kernel
def read_past_end(x: wp.array(dtype=wp.float32), y: wp.array(dtype=wp.float32)):
    i = wp.tid()
    y[i] = x[i + 2]


@wp.kernel
def write_past_end(x: wp.array(dtype=wp.float32), y: wp.array(dtype=wp.float32)):
    i = wp.tid()
    y[i * 3] = x[i]


@wp.kernel
def atomic_past_end(x: wp.array2d(dtype=wp.int32), n: int):
    i = wp.tid()
    wp.atomic_add(x, i, n, 1)


@wp.kernel
def in_function(x: wp.array(dtype=wp.float32), y: wp.array(dtype=wp.float32)):
    i = wp.tid()
    y[i] = fetch(x, i + 10)


@wp.func
def fetch(a: wp.array(dtype=wp.float32), k: int) -> float:
    return a[k]


# Run-time indices into vectors and matrices (issue #8, item 6): idx holds
# 0, 1, 2, 3, so exactly the thread with i == 3 indexes past the end.
@wp.kernel
def vec_read(idx: wp.array(dtype=int), out: wp.array(dtype=float)):
    i = wp.tid()
    v = wp.vec3(1.0, 2.0, 3.0)
    out[i] = v[idx[i]]


@wp.kernel
def vec_write(idx: wp.array(dtype=int), out: wp.array(dtype=float)):
    i = wp.tid()
    v = wp.vec3(1.0, 2.0, 3.0)
    v[idx[i]] = 5.0
    out[i] = v[0]


@wp.kernel
def mat_row(idx: wp.array(dtype=int), out: wp.array(dtype=float)):
    i = wp.tid()
    m = wp.mat33(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0)
    out[i] = m[idx[i], 0]


@wp.kernel
def mat_col(idx: wp.array(dtype=int), out: wp.array(dtype=float)):
    i = wp.tid()
    m = wp.mat33(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0)
    r = m[0]
    out[i] = m[0, idx[i]] + r[idx[i] - 1]


@wp.kernel
def mat_whole_row(idx: wp.array(dtype=int), out: wp.array(dtype=float)):
    i = wp.tid()
    m = wp.mat22(1.0, 2.0, 3.0, 4.0)
    r = m[idx[i] - 1]
    out[i] = r[0]


@wp.kernel
def elem_of_array(x: wp.array(dtype=wp.vec3), idx: wp.array(dtype=int), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = x[0][idx[i]]


# A sub-array's index is checked where the view is made (a[3] of a 3-row
# array), and an index into a view against the view's own shape.
@wp.kernel
def subarray_row(x: wp.array2d(dtype=float), idx: wp.array(dtype=int), out: wp.array(dtype=float)):
    i = wp.tid()
    r = x[idx[i]]
    out[i] = r[0]


@wp.kernel
def view_index(x: wp.array(dtype=float), idx: wp.array(dtype=int), out: wp.array(dtype=float)):
    i = wp.tid()
    s = x[1:4]
    out[i] = s[idx[i]]


@wp.kernel
def fixed_array_store(idx: wp.array(dtype=wp.int32), out: wp.array(dtype=wp.float32)):
    i = wp.tid()
    arr = wp.zeros(shape=(2, 3), dtype=int)
    arr[1, idx[i]] = 5
    out[i] = float(arr[1, 0])
