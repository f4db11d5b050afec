# expect: 8:5: error: 'break' outside a loop
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    break
