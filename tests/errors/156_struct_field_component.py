# expect: 12:10: error: cannot assign float32 to field 'v', which is vec3
import warp as wp


@wp.struct
class State:
    v: wp.vec3


@wp.kernel
def k(a: wp.array(dtype=State)):
    a[0].v = 1.0
