# expect: 7:5: error: cannot assign to a slice or sub-array of an array (Warp stores only to single elements)
import warp as wp


@wp.kernel
def k(a: wp.array2d(dtype=float)):
    a[0] = 1.0
