# Kernels for tests/cli/cli_test.sh: small enough that any backend runs them
# and their results can be predicted exactly from the SPEC grammar.
import warp as wp


@wp.kernel
def scale(x: wp.array(dtype=wp.float32), y: wp.array(dtype=wp.float32), s: wp.float32):
    i = wp.tid()
    y[i] = x[i] * s


@wp.kernel
def copy64(x: wp.array(dtype=wp.float64), y: wp.array(dtype=wp.float64)):
    i = wp.tid()
    y[i] = x[i]


@wp.kernel
def fill_int(a: wp.array(dtype=wp.int32), v: wp.int32):
    i = wp.tid()
    a[i] = v


@wp.kernel
def add_vec(a: wp.array(dtype=wp.vec3), b: wp.vec3):
    i = wp.tid()
    a[i] = a[i] + b


@wp.kernel
def grid(m: wp.array2d(dtype=wp.float32)):
    i, j = wp.tid()
    m[i, j] = float(i * 10 + j)
