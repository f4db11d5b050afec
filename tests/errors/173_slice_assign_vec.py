# expect: 8:5: error: cannot assign vec3 to a slice of type vec2
import warp as wp


@wp.kernel
def k(out: wp.array(dtype=wp.vec4)):
    v = wp.vec4(1.0, 2.0, 3.0, 4.0)
    v[1:3] = wp.vec3(9.0, 8.0, 7.0)
    out[0] = v
