# expect: 8:15: error: expected ')', found 'for'
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    x = sum(j for j in range(3))
