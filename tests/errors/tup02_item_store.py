# expect: 8:5: error: cannot assign to an element of a tuple(int32, int32)
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=int)):
    t = (1, 2)
    t[0] = 5
    a[0] = t[0]
