# expect: 7:24: error: wp.zeros(): a fixed-size array of 18446744073709551616 int8 is 18446744073709551616 bytes, too large: kern allows at most 262144 bytes per array (it lives on the thread's stack or in its private memory)
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=wp.int8)):
    f = wp.zeros(shape=(65536, 65536, 65536, 65536), dtype=wp.int8)
    a[0] = f[0, 0, 0, 0]
