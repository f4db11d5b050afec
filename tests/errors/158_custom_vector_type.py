# expect: 6:19: error: custom vector and matrix types (wp.types.vector(...)) are not supported yet
import warp as wp


@wp.kernel
def k(a: wp.types.vector(length=10, dtype=float)):
    pass
