# expect: 6:37: error: ndim must be an integer from 1 to 4
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float, ndim=5)):
    pass
