# expect: 10:22: error: a tuple index must be known when the kernel is compiled: a constant, or the variable of a range() loop with constant bounds and at most 16 trips
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=int)):
    t = (1, 2, 3)
    for i in range(17):
        if i < 3:
            a[i] = t[i]
