# expect: 8:8: error: wp.atomic_exch() is not supported on arrays of bfloat16 (Warp has atomic_add, atomic_sub, atomic_min and atomic_max for bfloat16)
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=wp.bfloat16)):
    i = wp.tid()
    wp.atomic_exch(a, 0, a[i])
