# expect: 12:19: error: struct 'State' has no field 'y'
import warp as wp


@wp.struct
class State:
    x: float


@wp.kernel
def k(a: wp.array(dtype=State), out: wp.array(dtype=float)):
    out[0] = a[0].y
