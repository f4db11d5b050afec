# expect: 13:29: error: State(): field 'm' is float32, got int32
import warp as wp


@wp.struct
class State:
    v: wp.vec3
    m: float


@wp.kernel
def k(a: wp.array(dtype=float)):
    s = State(wp.vec3(1.0), 2)
    a[0] = s.v[0]
