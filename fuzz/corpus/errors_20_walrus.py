# expect: 8:11: error: assignment expressions (':=') are not supported
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    if (x := 1) > 0:
        pass
