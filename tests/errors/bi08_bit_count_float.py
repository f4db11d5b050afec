# expect: 8:12: error: no overload of wp.bit_count() takes (float32)
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    b = wp.bit_count(a[i])
