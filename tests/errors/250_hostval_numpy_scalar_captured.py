# expect: 5:12: error: 'SCALE' is a numpy.float32 scalar, which Warp does not capture in a kernel; convert it with float(), int() or a Warp type such as wp.float32()
import numpy as np
import warp as wp

SCALE = np.float32(0.5)


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = SCALE
