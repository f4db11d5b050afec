# expect: 21:19: error: calling 'outer' brings the fixed-size arrays of kernel 'k' and the functions it calls to 72000 bytes; kern allows at most 65536 bytes of them per kernel (they live on the thread's stack or in its private memory)
import warp as wp


@wp.func
def inner(i: int) -> float:
    t = wp.zeros(shape=(10000,), dtype=float)
    t[i] = 1.0
    return t[i]


@wp.func
def outer(i: int) -> float:
    return inner(i) + 1.0


@wp.kernel
def k(a: wp.array(dtype=float)):
    f = wp.zeros(shape=(8000,), dtype=float)
    f[1] = 2.0
    a[0] = f[1] + outer(0)
