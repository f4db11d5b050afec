# expect: 5:5: error: cannot update a slice or sub-array of an array in place (Warp updates only single elements)
import warp as wp
@wp.kernel
def k(a: wp.array2d(dtype=float)):
    a[0] += 1.0
