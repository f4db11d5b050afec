# expect: 12:5: error: kernel 'k1' cannot be called from a kernel
import warp as wp


@wp.kernel
def k1(a: wp.array(dtype=float)):
    pass


@wp.kernel
def k(a: wp.array(dtype=float)):
    k1(a)
