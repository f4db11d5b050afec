# expect: 8:14: error: only 'for ... in range(...)' loops are supported
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    for x in a:
        pass
