# expect: 8:15: error: wp.tuple() is only supported as the value of a tuple assignment (a, b = wp.tuple(x, y)) or of a return
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = wp.tuple(a[i], 1.0)[0]
