# expect: 7:24: error: wp.zeros(): a fixed-size array of 90000 float32 is 360000 bytes, too large: kern allows at most 262144 bytes per array (it lives on the thread's stack or in its private memory)
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=int)):
    f = wp.zeros(shape=(300, 300), dtype=float)
    a[0] = int(f[0, 0])
