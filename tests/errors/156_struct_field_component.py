# expect: 13:7: error: assigning to a component of a struct field is not supported yet; assign the whole field
import warp as wp


@wp.struct
class State:
    v: wp.vec3


@wp.kernel
def k(a: wp.array(dtype=float)):
    s = State()
    s.v[0] = 1.0
    a[0] = s.v[0]
