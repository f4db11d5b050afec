# expect: 5:10: error: math.floor() of inf: Python cannot convert it to an integer
import math
import warp as wp

R = math.floor(math.inf)


@wp.kernel
def k(a: wp.array(dtype=int)):
    i = wp.tid()
    a[i] = R
