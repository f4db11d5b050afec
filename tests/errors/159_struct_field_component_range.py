# expect: 12:9: error: vector index 3 is out of range for 3 components
import warp as wp


@wp.struct
class S:
    v: wp.vec3


@wp.kernel
def k(s: S, out: wp.array(dtype=float)):
    s.v[3] = 1.0
    out[0] = s.v[0]
