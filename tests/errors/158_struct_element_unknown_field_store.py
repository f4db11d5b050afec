# expect: 12:10: error: struct 'S' has no field 'y'
import warp as wp


@wp.struct
class S:
    x: float


@wp.kernel
def k(a: wp.array(dtype=S)):
    a[0].y = 1.0
