# expect: 8:5: error: 'elif' without a matching 'if'
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    elif i > 0:
        pass
