# Fixed-size local arrays and @wp.func: passed where wp.array2d[int],
# wp.array[wp.vec2f] and wp.array[Any] are expected (the callee writes the
# caller's array), returned with an inferred and with a wp.fixedarray
# return type (a copy: the caller's array is its own), arrays of structs
# made and returned by a function, and a fixed array made in a function.
# kern-test: lang_fixed_array_func --dim 3 x='arange(float32,3)' out='zeros(float32,3,12)' iout='zeros(int32,3,12)'
# kern-check: out
# kern-check: iout
from typing import Any

import warp as wp


@wp.struct
class Cell:
    offset: int
    dist: float


@wp.func
def fill(arr: wp.array2d[int], base: int):
    for i in range(arr.shape[0]):
        for j in range(arr.shape[1]):
            arr[i][j] = i * arr.shape[1] + j + base


@wp.func
def first_vec(arr: wp.array[wp.vec2f]):
    return arr[0]


@wp.func
def first_any(arr: wp.array[Any]):
    return arr[0]


@wp.func
def ramp(k: int):
    arr = wp.zeros(shape=3, dtype=int)
    for i in range(arr.shape[0]):
        arr[i] = i * k
    return arr


@wp.func
def grid(k: float) -> wp.fixedarray(shape=(2, 3), dtype=float):
    arr = wp.zeros(shape=(2, 3), dtype=float)
    for i in range(2):
        for j in range(3):
            arr[i, j] = float(i * 3 + j) * k
    return arr


@wp.func
def cells(scale: float):
    arr = wp.zeros(shape=(2, 3), dtype=Cell)
    count = float(arr.shape[0] * arr.shape[1] - 1)
    for i in range(arr.shape[0]):
        for j in range(arr.shape[1]):
            arr[i][j].offset = i * arr.shape[1] + j
            arr[i][j].dist = float(arr[i][j].offset) / count * scale
    return arr


@wp.func
def local_sum(n: int):
    t = wp.zeros(shape=(4,), dtype=wp.int64)
    for i in range(n):
        t[i % 4] += wp.int64(i)
    return int(t[0] + t[1] * wp.int64(10) + t[2] * wp.int64(100) + t[3] * wp.int64(1000))


@wp.kernel
def lang_fixed_array_func(x: wp.array(dtype=float), out: wp.array2d(dtype=float), iout: wp.array2d(dtype=int)):
    tid = wp.tid()
    a = wp.zeros(shape=(2, 3), dtype=int)
    fill(a, tid * 10)
    iout[tid, 0] = a[1][2]
    iout[tid, 1] = a[0, 1]

    v = wp.zeros(shape=(3,), dtype=wp.vec2f)
    v[0] = wp.vec2f(x[tid], 2.0)
    fv = first_vec(v)
    out[tid, 0] = fv[0] + fv[1]
    f = wp.zeros(shape=(4,), dtype=float)
    f[0] = x[tid] * 3.0
    out[tid, 1] = first_any(f)
    n = wp.zeros(shape=(5,), dtype=int)
    n[0] = 42 + tid
    iout[tid, 2] = first_any(n)

    r = ramp(tid + 2)
    r2 = ramp(5)
    r[0] = 99
    iout[tid, 3] = r[0] + r[1] * 100 + r[2] * 10000
    iout[tid, 4] = r2[0] + r2[2] * 100 + r.shape[0] * 10000

    g = grid(x[tid] + 1.0)
    out[tid, 2] = g[1][2]
    out[tid, 3] = g[0, 1] + float(g.shape[1])

    c = cells(x[tid] + 1.0)
    iout[tid, 5] = c[1][1].offset + c[0][2].offset * 10
    out[tid, 4] = c[1][1].dist
    out[tid, 5] = c[0, 1].dist
    iout[tid, 6] = local_sum(tid + 6)
