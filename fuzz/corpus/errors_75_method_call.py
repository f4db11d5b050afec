# expect: 8:7: error: method calls are not supported ('.fill_()')
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    a.fill_(1.0)
