# expect: 8:12: error: wp.quat_to_axis_angle() returns 2 values; unpack them: axis, angle = wp.quat_to_axis_angle(q)
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    x = wp.quat_to_axis_angle(wp.quat_identity())
