# expect: 5:12: error: numpy.int8(300): Python integer out of bounds (numpy raises OverflowError)
import numpy as np
import warp as wp

R = int(np.int8(300))


@wp.kernel
def k(a: wp.array(dtype=int)):
    i = wp.tid()
    a[i] = R
