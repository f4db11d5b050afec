# expect: 8:15: error: wp.frobnicate is not a function kern supports
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = wp.frobnicate(a[i])
