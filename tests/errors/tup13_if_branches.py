# expect: 11:9: error: the tuple 't' is already assigned (Warp assigns a tuple variable only once)
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=int)):
    i = wp.tid()
    if i == 0:
        t = (1, 2)
    else:
        t = (3, 4)
    a[i] = t[1]
