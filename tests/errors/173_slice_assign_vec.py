# expect: 8:7: error: assigning to a slice is not supported yet (Warp allows it for vectors and matrices); assign the components one by one
import warp as wp


@wp.kernel
def k(out: wp.array(dtype=wp.vec4)):
    v = wp.vec4(1.0, 2.0, 3.0, 4.0)
    v[1:3] = wp.vec2(9.0, 8.0)
    out[0] = v
