# expect: 6:19: error: wp.types.vector() needs a length of at least 1, got 0
import warp as wp


@wp.kernel
def k(a: wp.types.vector(length=0, dtype=float)):
    pass
