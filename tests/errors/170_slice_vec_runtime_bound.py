# expect: 8:18: error: a slice of a vector or matrix needs constant integer bounds, as in Warp
import warp as wp


@wp.kernel
def k(out: wp.array(dtype=wp.vec2), n: int):
    v = wp.vec4(1.0, 2.0, 3.0, 4.0)
    out[0] = v[0:n]
