# expect: 8:9: error: a tuple(int32, int32, int32) cannot be sliced
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=int)):
    t = (1, 2, 3)
    u = t[1:]
