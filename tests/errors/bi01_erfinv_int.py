# expect: 8:15: error: no overload of wp.erfinv() takes (int32)
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = wp.erfinv(1)
