# expect: 11:10: error: struct kernel parameters are not supported yet (structs work as locals and in @wp.func)
import warp as wp


@wp.struct
class State:
    x: float


@wp.kernel
def k(s: State, a: wp.array(dtype=float)):
    a[0] = s.x
