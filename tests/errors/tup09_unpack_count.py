# expect: 8:5: error: cannot unpack a tuple of 2 items into 3 targets
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=int)):
    t = (1, 2)
    x, y, z = t
