# expect: 8:14: error: tuple index 3 is out of range for a tuple of 3 items
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=int)):
    t = (1, 2, 3)
    a[0] = t[3]
