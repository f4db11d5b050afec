# expect: 11:13: error: arrays of structs are not supported yet
import warp as wp


@wp.struct
class State:
    x: float


@wp.kernel
def k(a: wp.array(dtype=State)):
    pass
