# expect: 8:5: error: 'match' is not supported in kernels and functions
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    match i:
        case 0:
            pass
