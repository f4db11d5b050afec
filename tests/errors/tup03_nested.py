# expect: 7:10: error: a tuple cannot hold another tuple (Warp does not support nested tuples)
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=int)):
    t = ((1, 2), 3)
    a[0] = t[1]
