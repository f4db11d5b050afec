# expect: 8:5: error: cannot assign to a slice or sub-array of an array (Warp stores only to single elements)
import warp as wp


@wp.kernel
def k(a: wp.indexedarray2d(dtype=float)):
    i = wp.tid()
    a[i] = 1.0
