# expect: 6:28: error: wp.half is not a Warp type; write wp.float16
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=wp.half)):
    i = wp.tid()
    a[i] = a[i]
