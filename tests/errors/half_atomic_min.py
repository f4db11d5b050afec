# expect: 8:8: error: wp.atomic_min() is not supported on arrays of float16 (Warp has atomic_add and atomic_sub for float16)
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=wp.float16)):
    i = wp.tid()
    wp.atomic_min(a, 0, a[i])
