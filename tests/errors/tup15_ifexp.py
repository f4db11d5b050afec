# expect: 9:11: error: a conditional expression cannot choose between tuples (Warp refuses it too)
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=int)):
    t = (1, 2)
    u = (3, 4)
    v = t if a[0] > 0 else u
