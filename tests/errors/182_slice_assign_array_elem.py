# expect: 8:5: error: cannot assign to a slice of an array element; assign it to a variable first (Warp has no such store either)
import warp as wp


@wp.kernel
def k(v: wp.array(dtype=wp.vec4)):
    i = wp.tid()
    v[i][1:3] = wp.vec2(1.0, 2.0)
