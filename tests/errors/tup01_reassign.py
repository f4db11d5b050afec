# expect: 8:5: error: the tuple 't' is already assigned (Warp assigns a tuple variable only once)
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=int)):
    t = (1, 2)
    t = (3, 4)
    a[0] = t[0]
