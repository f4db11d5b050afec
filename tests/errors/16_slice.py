# expect: 8:10: error: assigning to a slice is not supported yet (Warp allows it for vectors and matrices); assign the components one by one
import warp as wp


@wp.kernel
def k(a: wp.array2d(dtype=float)):
    i = wp.tid()
    a[i, 1:3] = 1.0
