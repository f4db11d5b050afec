# expect: 13:9: error: State() takes all 2 fields or none, got 1
import warp as wp


@wp.struct
class State:
    v: wp.vec3
    m: float


@wp.kernel
def k(a: wp.array(dtype=float)):
    s = State(v=wp.vec3(1.0))
    a[0] = s.v[0]
