# expect: 8:12: error: the fixed-size arrays of kernel 'k' take 65544 bytes together; kern allows at most 65536 bytes of them per kernel, the functions it calls included (they live on the thread's stack or in its private memory)
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    f = wp.zeros(shape=(8193,), dtype=float)
    g = wp.zeros(shape=(8193,), dtype=float)
    a[0] = f[0] + g[0]
