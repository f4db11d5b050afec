# expect: 8:12: error: the fixed-size arrays of kernel 'k' take 262152 bytes together; kern allows at most 262144 bytes of them per kernel on every target, the functions it calls included (they live on the thread's stack, in CUDA's local memory of 512 KiB a thread or in OpenCL's private memory)
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    f = wp.zeros(shape=(32769,), dtype=float)
    g = wp.zeros(shape=(32769,), dtype=float)
    a[0] = f[0] + g[0]
