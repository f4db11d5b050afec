# expect: 10:18: error: a tuple index must be known when the kernel is compiled: a constant, or the variable of a range() loop with constant bounds and at most 16 trips
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=int)):
    t = (1, 2, 3)
    i = int(0)
    while i < 3:
        a[i] = t[i]
        i += 1
