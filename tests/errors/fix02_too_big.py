# expect: 7:24: error: wp.zeros(): a fixed-size array of 40000 float32 is 160000 bytes, too large: kern allows at most 65536 bytes per array (it lives on the thread's stack or in its private memory)
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=int)):
    f = wp.zeros(shape=(200, 200), dtype=float)
    a[0] = int(f[0, 0])
