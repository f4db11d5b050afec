# expect: 7:25: error: wp.zeros(): dimension 0 of a fixed-size array is 100000, too large: kern allows at most 65536 bytes per array (it lives on the thread's stack or in its private memory)
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    f = wp.zeros(shape=(100000,), dtype=float)
    a[0] = f[0]
