# expect: 6:5: error: wp.tid() is unpacked into 2 values here but 1 elsewhere in this kernel
import warp as wp
@wp.kernel
def k(a: wp.array2d(dtype=float)):
    i = wp.tid()
    x, y = wp.tid()
    a[x, y] = float(i)
