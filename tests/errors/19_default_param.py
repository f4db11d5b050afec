# expect: 6:42: error: default values of kernel parameters are not supported
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float), s: float = 2.0):
    pass
