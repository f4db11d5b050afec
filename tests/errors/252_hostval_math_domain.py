# expect: 5:10: error: math.sqrt(): math domain error (Python raises ValueError)
import math
import warp as wp

R = math.sqrt(-1.0)


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = R
