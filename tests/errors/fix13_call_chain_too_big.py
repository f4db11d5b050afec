# expect: 21:19: error: calling 'outer' brings the fixed-size arrays of kernel 'k' and the functions it calls to 288000 bytes; kern allows at most 262144 bytes of them per kernel on every target (they live on the thread's stack, in CUDA's local memory of 512 KiB a thread or in OpenCL's private memory)
import warp as wp


@wp.func
def inner(i: int) -> float:
    t = wp.zeros(shape=(40000,), dtype=float)
    t[i] = 1.0
    return t[i]


@wp.func
def outer(i: int) -> float:
    return inner(i) + 1.0


@wp.kernel
def k(a: wp.array(dtype=float)):
    f = wp.zeros(shape=(32000,), dtype=float)
    f[1] = 2.0
    a[0] = f[1] + outer(0)
