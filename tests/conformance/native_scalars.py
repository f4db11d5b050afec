# kern-test: native_scalars --dim 8 x='arange(float32,8)' n='arange(int32,8)' d='arange(float64,8)' out='zeros(float32,8,4)' ints='zeros(int64,8,3)' dout='zeros(float64,8)' flags='zeros(bool,8)'
# kern-check: out
# kern-check: ints
# kern-check: dout
# kern-check: flags
# @wp.func_native with scalar parameters and results: the snippet is the
# body, parameters are visible under their Python names with C types, and
# `return` gives the declared type.  Every snippet here is valid C11, CUDA
# C++ and OpenCL C.
import warp as wp

# a snippet kept in a module-level string, as Warp's documentation shows
AXPY = """
    return a * x + y;
"""


@wp.func_native(AXPY)
def axpy(a: wp.float32, x: wp.float32, y: wp.float32) -> wp.float32: ...


@wp.func_native(
    """
    int32_t s = 0;
    for (int32_t k = 0; k <= n; k++) {
        s += k * k;
    }
    return s;
    """,
    adj_snippet="adj_n += 0;",
)
def sum_squares(n: wp.int32) -> wp.int32:
    """The sum of k*k for k in 0..n, computed in the snippet."""
    ...


@wp.func_native("return (int64_t)a * 8589934592LL + (int64_t)b;")
def pack(a: wp.int32, b: wp.uint32) -> wp.int64: ...


@wp.func_native("return v * 0.5 + 1.0 / 3.0;")
def half_plus_third(v: wp.float64) -> wp.float64: ...


@wp.func_native("return a > b;")
def greater(a: float, b: float) -> wp.bool: ...


@wp.func_native("return (float)(u % 7u) - 3.0f;")
def wrap7(u: wp.uint64) -> float: ...


@wp.func
def through_func(x: float, n: int) -> float:
    # a native function called from a @wp.func
    return axpy(x, float(n), 0.25) + wrap7(wp.uint64(n) * wp.uint64(1000003))


@wp.kernel
def native_scalars(
    x: wp.array(dtype=wp.float32),
    n: wp.array(dtype=wp.int32),
    d: wp.array(dtype=wp.float64),
    out: wp.array2d(dtype=wp.float32),
    ints: wp.array2d(dtype=wp.int64),
    dout: wp.array(dtype=wp.float64),
    flags: wp.array(dtype=wp.bool),
):
    i = wp.tid()
    out[i, 0] = axpy(2.0, x[i], -1.5)
    out[i, 1] = through_func(x[i], n[i])
    out[i, 2] = wrap7(wp.uint64(i))
    out[i, 3] = axpy(x[i], x[i], axpy(0.5, x[i], 1.0))
    ints[i, 0] = wp.int64(sum_squares(n[i]))
    ints[i, 1] = pack(n[i] - 3, wp.uint32(i * 7))
    ints[i, 2] = wp.int64(sum_squares(sum_squares(n[i] % 3)))
    dout[i] = half_plus_third(d[i])
    flags[i] = greater(x[i], 3.5)
