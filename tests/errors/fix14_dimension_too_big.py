# expect: 7:25: error: wp.zeros(): dimension 0 of a fixed-size array is 300000, too large: kern allows at most 262144 bytes per array (it lives on the thread's stack or in its private memory)
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    f = wp.zeros(shape=(300000,), dtype=float)
    a[0] = f[0]
