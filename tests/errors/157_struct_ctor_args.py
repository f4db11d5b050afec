# expect: 12:9: error: State() takes no arguments in a kernel; write s = State() and set its fields
import warp as wp


@wp.struct
class State:
    v: wp.vec3


@wp.kernel
def k(a: wp.array(dtype=float)):
    s = State(v=wp.vec3(1.0))
    a[0] = s.v[0]
