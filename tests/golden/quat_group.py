# A float32 quaternion next to the CUDA 16-byte vector loop over float32
# arrays: the loop's group of four floats and the quaternion type must be
# two types (both were once named k_q4f32, and the first definition won).
import warp as wp


@wp.kernel
def rotate_x(q: wp.quat, x: wp.array(dtype=wp.float32), y: wp.array(dtype=wp.float32)):
    i = wp.tid()
    v = wp.quat_rotate(q, wp.vec3(x[i], 0.0, 0.0))
    y[i] = v[0] + v[1]
