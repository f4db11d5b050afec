# expect: 6:19: error: custom vector types of length 10 are not supported yet (kern has vectors of 2 to 4 components)
import warp as wp


@wp.kernel
def k(a: wp.types.vector(length=10, dtype=float)):
    pass
