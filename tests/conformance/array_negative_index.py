# Negative indices: Warp wraps them like Python (a[-1] is the last element), for
# literal and runtime indices, on 1-d and 2-d arrays; v[-1] is the last vector component.
# kern-test: array_negative_index --dim 4 a='arange(float32,6)' m='arange(int32,12)' out='zeros(float32,4,3)' om='zeros(int32,4)'
# kern-check: out
# kern-check: om
import warp as wp


@wp.kernel
def array_negative_index(a: wp.array(dtype=wp.float32), m: wp.array(dtype=wp.int32),
                         out: wp.array2d(dtype=wp.float32), om: wp.array(dtype=wp.int32)):
    i = wp.tid()
    out[i, 0] = a[-1]
    out[i, 1] = a[-1 - i]
    v = wp.vec3(1.0, 2.0, 3.0)
    out[i, 2] = v[-1]
    om[i] = m[-2 - i]
