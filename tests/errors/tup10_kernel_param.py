# expect: 6:7: error: a kernel parameter cannot be a tuple (Warp passes tuples only between functions)
import warp as wp


@wp.kernel
def k(t: tuple[int, int], a: wp.array(dtype=int)):
    a[0] = t[0]
