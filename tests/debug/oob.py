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
