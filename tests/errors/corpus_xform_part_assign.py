# expect: 8:9: error: assigning to a component of a transform's p changes a copy in Warp, leaving the transform as it was; assign the whole part (t.p = ...) instead
import warp as wp


@wp.kernel
def k(out: wp.array(dtype=float)):
    t = wp.transformf(wp.vec3f(1.0, 2.0, 3.0), wp.quatf(0.0, 0.0, 0.0, 1.0))
    t.p.z = 5.0
    out[0] = t.p.z
