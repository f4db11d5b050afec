# expect: 10:12: error: 'x' may be read before it is assigned (it is assigned only on some paths before this line)
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    if i > 0:
        x = 1.0
    a[i] = x
