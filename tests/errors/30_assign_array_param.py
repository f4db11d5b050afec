# expect: 8:5: error: cannot assign to the array parameter 'a'
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    a = a
