# expect: 8:5: error: 'continue' outside a loop
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    continue
