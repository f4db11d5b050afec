# expect: 8:9: error: complex numbers are not supported
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    x = 1j
